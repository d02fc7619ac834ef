// The self-test's planted uses (scripts/platforms/selftest.sh). A line ending in
// `// expect: NAME` must be reported as a use of NAME above the floor; `-PLATFORM` after the
// name says that platform must not be among those reported. `// expect-unknown: NAME` must be
// reported as of unknown availability. Every other line must not be reported.
import Foundation
import Synchronization

// Above the floor, nothing raises it: reported.
func unguarded() -> Int {
    let lock = Mutex(0)  // expect: Mutex
    return lock.withLock { $0 }  // expect: withLock
}

// A comment is not an attribute: @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func commentedOut() -> Int {
    Mutex(1).withLock { $0 }  // expect: Mutex
}

// Nor is a string.
func inAString() -> Int {
    let text = "if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {"
    _ = text
    return Mutex(2).withLock { $0 }  // expect: Mutex
}

// @available on the declaration.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func guarded() -> Int {
    Mutex(3).withLock { $0 }
}

// Our own declarations marked @available count like the SDK's.
func callsGuarded() -> Int {
    guarded() + Guarded().value  // expect: guarded()
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func callsGuardedFromGuarded() -> Int {
    guarded()
}

// @available naming only macOS: the other platforms stay at the floor.
@available(macOS 15.0, *)
func macOnly() -> Int {
    Mutex(4).withLock { $0 }  // expect: Mutex -macOS
}

// The long form.
@available(iOS, introduced: 18.0)
@available(macOS, introduced: 15.0)
@available(tvOS, introduced: 18.0)
@available(watchOS, introduced: 11.0)
@available(visionOS, introduced: 2.0)
func longForm() -> Int {
    Mutex(5).withLock { $0 }
}

// On a type: its members, and members of its extensions elsewhere, inherit it.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class Guarded {
    let lock = Mutex(6)
    var value: Int { lock.withLock { $0 } }
}

extension Guarded {
    func twice() -> Int { lock.withLock { $0 * 2 } }
}

// On an extension.
struct Plain {}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Plain {
    func locked() -> Int { Mutex(7).withLock { $0 } }
}

// A stored property of a type available at the floor.
struct Wide {
    var value: Int128  // expect: Int128
}

// if #available, its else branch, guard #available and if #unavailable.
func conditions() -> Int {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        _ = Mutex(8).withLock { $0 }
    } else {
        _ = Mutex(9).withLock { $0 }  // expect: Mutex
    }
    if #unavailable(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0) {
        _ = Mutex(10).withLock { $0 }  // expect: Mutex
    } else {
        _ = Mutex(11).withLock { $0 }
    }
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return 0 }
    return Mutex(12).withLock { $0 }
}

// Below the floor or usable there: not reported. Duration and ContinuousClock are the floor;
// withTaskCancellationHandler(operation:onCancel:isolation:) is back-deployed; &* is a newer
// requirement with a default implementation; for await picks next() where next(isolation:) is
// not available.
func atTheFloor(_ stream: AsyncStream<Int>, _ x: UInt64) async -> Duration {
    for await _ in stream {}
    await withTaskCancellationHandler {} onCancel: {}
    _ = x &* 3
    let clock = ContinuousClock()
    return clock.now.duration(to: clock.now) + .seconds(Int(x))
}

// An explicit next(isolation:) is reported.
func explicitNext(_ stream: AsyncStream<Int>, isolation actor: isolated (any Actor)? = #isolation) async {
    var iterator = stream.makeAsyncIterator()
    _ = await iterator.next(isolation: actor)  // expect: next(isolation:)
}

// swift-corelibs-foundation declares no Apple availability and NSLock is not in reviewed.txt.
func corelibs() {
    let lock = NSLock()  // expect-unknown: NSLock
    lock.lock()  // expect-unknown: lock()
    lock.unlock()  // expect-unknown: unlock()
}

// A generic parameter of an SDK type (Task's Success and Failure) has no availability of its
// own: nothing is reported for it.
extension Task where Failure == Never {
    func valueOrNil() async -> Success? { await value }
}
