import SwiftErr

/// A clock that only moves when told to: for deterministic tests of ``Retrier``,
/// ``withMinimumDuration(_:clock:isolation:_:)`` and anything else that sleeps on an injected
/// `Clock<Duration>`.
///
/// Sleepers registered with ``sleep(until:tolerance:)`` resume when ``advance(by:)`` or
/// ``advance(to:)`` moves ``now`` to or past their deadline, earliest deadline first, or throw
/// `CancellationError` as soon as their task is cancelled. ``waitForSleepers(_:)`` lets a test
/// wait, without polling or real time, until the code under test is asleep.
///
/// <!-- listing: context=app,tests -->
/// ```swift
/// let clock = ManualClock()
/// let retrier = Retrier(for: UploadCode.self, clock: clock)
/// let task = Task { try await retrier.run { try await upload() } }
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(1))
/// ```
public final class ManualClock: Clock, Sendable {
    /// An instant of a ``ManualClock``: the time elapsed since the clock's origin.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// Time since the clock's origin.
        public var offset: Swift.Duration

        /// Creates an instant.
        /// - Parameter offset: Time since the clock's origin.
        public init(offset: Swift.Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        /// - Parameter duration: The time to add.
        /// - Returns: The later instant.
        public func advanced(by duration: Swift.Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        /// - Parameter other: Another instant.
        /// - Returns: `other - self`.
        public func duration(to other: Instant) -> Swift.Duration {
            other.offset - offset
        }

        /// Orders instants by offset.
        /// - Parameters:
        ///   - lhs: An instant.
        ///   - rhs: Another instant.
        /// - Returns: Whether `lhs` is earlier.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    /// A sleeper's place in the queue: its deadline, then its id (the order sleeps were asked in).
    /// A struct, not a tuple: a debug build looks tuple metadata up on every comparison.
    private struct Deadline {
        let deadline: Instant
        let id: UInt64
    }

    private struct State {
        var now: Instant
        var nextID: UInt64 = 0
        /// The sleepers waiting, by id.
        var sleepers: [UInt64: Sleeper] = [:]
        /// The sleepers' deadlines as a binary min-heap of (deadline, id); an entry whose id is no
        /// longer in `sleepers` (a cancelled sleeper) is skipped when it reaches the top.
        var queue: [Deadline] = []
        var watchers: [Watcher] = []
        /// Every sleep asked for, when they are recorded.
        var requests: [Swift.Duration]?

        /// Removes and returns the watchers now satisfied.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            // Called on every sleep: a simulation's millions of them find no watcher.
            if watchers.isEmpty { return [] }
            let ready = watchers.filter { $0.count <= sleepers.count }
            watchers.removeAll { $0.count <= sleepers.count }
            return ready.map(\.continuation)
        }

        static func precedes(_ a: Deadline, _ b: Deadline) -> Bool {
            a.deadline < b.deadline || (a.deadline == b.deadline && a.id < b.id)
        }

        mutating func push(_ entry: Deadline) {
            queue.append(entry)
            var child = queue.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.precedes(queue[child], queue[parent]) else { break }
                queue.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popTop() {
            queue.swapAt(0, queue.count - 1)
            queue.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var first = parent
                if left < queue.count, Self.precedes(queue[left], queue[first]) { first = left }
                if right < queue.count, Self.precedes(queue[right], queue[first]) { first = right }
                if first == parent { return }
                queue.swapAt(parent, first)
                parent = first
            }
        }

        /// The earliest deadline of a sleeper still waiting, dropping cancelled entries on the way.
        mutating func earliest() -> Deadline? {
            while let top = queue.first {
                if sleepers[top.id] != nil { return top }
                popTop()
            }
            return nil
        }
    }

    private let state: Locked<State>

    /// Creates a clock.
    /// - Parameters:
    ///   - now: The starting instant (the origin by default).
    ///   - recordingSleeps: Whether ``sleepRequests`` keeps every sleep asked for (a simulation of
    ///     millions of requests turns it off).
    public init(now: Instant = Instant(offset: .zero), recordingSleeps: Bool = true) {
        state = Locked(State(now: now, requests: recordingSleeps ? [] : nil))
    }

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// `.zero`: the clock is exact.
    public var minimumResolution: Swift.Duration { .zero }

    /// How many sleepers are waiting.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Every sleep asked for so far, as the duration from the then-current instant to the
    /// deadline, in the order asked (also for deadlines already reached); empty when the clock does
    /// not record them.
    public var sleepRequests: [Swift.Duration] { state.withLock { $0.requests ?? [] } }

    /// The earliest deadline a sleeper waits for, or `nil` when nobody is sleeping.
    public var nextDeadline: Instant? { state.withLock { $0.earliest()?.deadline } }

    /// Suspends until `deadline` is reached by advancing the clock.
    /// - Parameters:
    ///   - deadline: When to resume.
    ///   - tolerance: Ignored: the clock is exact.
    /// - Throws: `CancellationError` when the task is cancelled before or while sleeping.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        let id: UInt64? = state.withLock { state in
            state.requests?.append(state.now.duration(to: deadline))
            if deadline <= state.now { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let watchers = state.withLock { state in
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    state.push(Deadline(deadline: deadline, id: id))
                    return state.satisfiedWatchers()
                }
                for watcher in watchers { watcher.resume() }
                // The cancellation handler may have run before the sleeper was registered.
                if Task.isCancelled { cancelSleeper(id) }
            }
        } onCancel: {
            cancelSleeper(id)
        }
    }

    /// Resumes the sleeper `id` with `CancellationError` if it is still waiting. Removing it
    /// under the lock makes sure it is resumed exactly once.
    private func cancelSleeper(_ id: UInt64) {
        let sleeper: Sleeper? = state.withLock { $0.sleepers.removeValue(forKey: id) }
        sleeper?.continuation.resume(throwing: CancellationError())
    }

    /// Moves the clock forward and wakes the sleepers whose deadline is reached, earliest first.
    /// - Parameter duration: How far to move; a negative duration is treated as zero (time
    ///   never goes back).
    public func advance(by duration: Swift.Duration) {
        let target = state.withLock { $0.now.advanced(by: max(duration, .zero)) }
        advance(to: target)
    }

    /// Moves the clock to `instant` (if it is later than ``now``) and wakes the sleepers whose
    /// deadline is reached, earliest first.
    /// - Parameter instant: The new current instant.
    public func advance(to instant: Instant) {
        let woken: [Sleeper] = state.withLock { state in
            if instant > state.now { state.now = instant }
            var due: [Sleeper] = []
            while let top = state.earliest(), top.deadline <= state.now {
                state.popTop()
                if let sleeper = state.sleepers.removeValue(forKey: top.id) { due.append(sleeper) }
            }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves the clock to the earliest pending deadline and wakes the sleepers due then.
    /// - Returns: The time moved, or `nil` when nobody is sleeping.
    @discardableResult
    public func advanceToNextDeadline() -> Swift.Duration? {
        let next: (Instant, Instant)? = state.withLock { state in
            state.earliest().map { ($0.deadline, state.now) }
        }
        guard let (deadline, now) = next else { return nil }
        advance(to: deadline)
        return now.duration(to: deadline)
    }

    /// Suspends until at least `count` sleepers are waiting on this clock.
    /// - Parameter count: How many sleepers to wait for.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.watchers.append(Watcher(count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
