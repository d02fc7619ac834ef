import Foundation
import Testing

@testable import SwiftErr

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Error channel", .timeLimit(.minutes(1)))
struct ErrorChannelTests {
    typealias Failure = ModuleRespError<SyncCode>

    /// Reads the next `count` deliveries from a handler.
    static func take(_ count: Int, from handler: ErrorSubscription<Failure>) async -> [ErrorDelivery<Failure>] {
        var result: [ErrorDelivery<Failure>] = []
        for _ in 0..<count {
            guard let delivery = await handler.next() else { break }
            result.append(delivery)
        }
        return result
    }

    @Test("two handlers on one channel each receive every error, in order")
    func twoHandlers() async {
        let channel = ErrorChannel<Failure>()
        let first = channel.attach()
        let second = channel.attach()
        // The first handler is already waiting when the errors arrive; the second reads them later.
        let waiting = Task { await Self.take(3, from: first) }
        #expect(channel.emit(.module(.serverBusy)) == 2)
        #expect(channel.emit(.unacceptableStatus(503)) == 2)
        #expect(channel.emit(.cancelled) == 2)
        let a = await waiting.value
        let b = await Self.take(3, from: second)
        for deliveries in [a, b] {
            #expect(deliveries.map(\.sequenceNumber) == [0, 1, 2])
            #expect(deliveries.map(\.error.moduleCode) == [.serverBusy, nil, nil])
            #expect(deliveries[1].error.statusCode == 503)
            #expect(deliveries[2].error.isCancelled)
            #expect(deliveries.allSatisfy { $0.droppedBefore == 0 })
        }
    }

    @Test("a handler can detach: a waiting iteration ends and later errors go only to the others")
    func detach() async {
        let channel = ErrorChannel<Failure>()
        let leaving = channel.attach()
        let staying = channel.attach()
        let waiting = Task { await leaving.next() }
        leaving.detach()
        #expect(await waiting.value == nil)
        #expect(channel.handlerCount == 1)
        #expect(channel.emit(.cancelled) == 1)
        #expect(await leaving.next() == nil)
        #expect(await staying.next()?.error.isCancelled == true)
        leaving.detach()  // a second detach does nothing
        #expect(channel.handlerCount == 1)
    }

    @Test("a slow handler's full buffer drops the oldest errors and says so; a fast handler loses nothing")
    func overflowPolicy() async {
        let channel = ErrorChannel<Failure>(bufferLimit: 2)
        let slow = channel.attach()
        let fast = channel.attach()
        var fastSeen: [UInt64] = []
        for status in 500..<505 {
            channel.emit(.unacceptableStatus(status))
            if let delivery = await fast.next() { fastSeen.append(delivery.sequenceNumber) }
        }
        #expect(fastSeen == [0, 1, 2, 3, 4])
        #expect(fast.droppedCount == 0)
        let slowSeen = await Self.take(2, from: slow)
        #expect(slowSeen.map(\.sequenceNumber) == [3, 4])
        #expect(slowSeen.map(\.error.statusCode) == [503, 504])
        #expect(slowSeen.map(\.droppedBefore) == [3, 0])
        #expect(slow.droppedCount == 3)
        #expect(channel.droppedCount == 3)
        slow.detach()
        #expect(slow.droppedCount == 3)  // still readable after detaching
    }

    @Test("errors emitted with no handler attached are counted, not buffered for later handlers")
    func unhandled() async {
        let channel = ErrorChannel<Failure>()
        #expect(channel.emit(.cancelled) == 0)
        #expect(channel.unhandledCount == 1)
        let late = channel.attach()
        channel.emit(.unacceptableStatus(500))
        #expect(await late.next()?.sequenceNumber == 1)
    }

    @Test("finish ends each handler after it has drained its buffer, and refuses new errors")
    func finish() async {
        let channel = ErrorChannel<Failure>()
        let buffered = channel.attach()
        let idle = channel.attach()
        channel.emit(.cancelled)
        #expect(await idle.next() != nil)
        let waiting = Task { await idle.next() }
        channel.finish()
        #expect(await waiting.value == nil)
        #expect(await buffered.next()?.error.isCancelled == true)
        #expect(await buffered.next() == nil)
        #expect(channel.emit(.cancelled) == 0)
        #expect(channel.isFinished)
        #expect(await channel.attach().next() == nil)
    }

    @Test("cancelling the iterating task ends its sequence without detaching the handler")
    func cancellingIteration() async {
        let channel = ErrorChannel<Failure>()
        let handler = channel.attach()
        let task = Task {
            var count = 0
            for await _ in handler { count += 1 }
            return count
        }
        task.cancel()
        #expect(await task.value == 0)
        #expect(channel.handlerCount == 1)
        channel.emit(.cancelled)
        #expect(await handler.next()?.error.isCancelled == true)
    }

    @Test("releasing a subscription detaches it")
    func releaseDetaches() {
        let channel = ErrorChannel<Failure>()
        do {
            let handler = channel.attach()
            #expect(channel.handlerCount == 1)
            _ = handler
        }
        #expect(channel.handlerCount == 0)
    }

    @Test("concurrent producers: every error reaches the handler exactly once")
    func concurrentProducers() async {
        let channel = ErrorChannel<Failure>(bufferLimit: 1_000)
        let handler = channel.attach()
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<4 {
                group.addTask {
                    for index in 0..<100 { channel.emit(.unexpectedCode(Int64(producer * 1_000 + index))) }
                }
            }
        }
        let deliveries = await Self.take(400, from: handler)
        #expect(Set(deliveries.map(\.sequenceNumber)) == Set(0..<400))
        #expect(Set(deliveries.compactMap(\.error.rawCode)).count == 400)
        #expect(handler.droppedCount == 0)
        // Each producer's errors arrive in the order it emitted them.
        for producer in 0..<4 {
            let own = deliveries.compactMap(\.error.rawCode).filter { $0 / 1_000 == Int64(producer) }
            #expect(own == own.sorted())
        }
    }

    @Test("emit(adapting:) runs the adapter registry: adapted errors are emitted, ignored ones are not")
    func adaptingEmit() async {
        var adapters = ErrorAdapterRegistry<SyncCode>.standard
        adapters.prepend(ClosureErrorAdapter(OpaqueFailure.self, for: SyncCode.self, name: "ignore") { _ in nil })
        let channel = ErrorChannel<Failure>()
        let handler = channel.attach()
        let ignored = channel.emit(adapting: OpaqueFailure(tag: "noise"), with: adapters)
        #expect(ignored.error == nil)
        channel.emit(adapting: URLError(.timedOut), with: adapters)
        let delivery = await handler.next()
        #expect(delivery?.sequenceNumber == 0)
        #expect((delivery?.error.underlyingError as? URLError)?.code == .timedOut)
    }

    @Test("a channel of any Error carries foreign errors unchanged")
    func anyErrorChannel() async {
        let channel = ErrorChannel<any Error>(bufferLimit: 0)
        #expect(channel.bufferLimit == 1)
        let handler = channel.attach()
        channel.emit(OpaqueFailure(tag: "x"))
        #expect(await handler.next()?.error as? OpaqueFailure == OpaqueFailure(tag: "x"))
    }
}

/// A handler that records what it was given.
final class RecordingErrorHandler: ErrorHandling {
    private let seen = Locked<[UInt64]>([])
    var sequenceNumbers: [UInt64] { seen.withLock { $0 } }
    func handle(_ delivery: ErrorDelivery<ModuleRespError<SyncCode>>) async {
        seen.withLock { $0.append(delivery.sequenceNumber) }
    }
}

@Suite("Error channel bindings", .timeLimit(.minutes(1)))
struct ErrorChannelBindingTests {
    @Test("a bound handler gets every error in order until the channel finishes")
    func bindUntilFinish() async {
        let channel = ErrorChannel<ModuleRespError<SyncCode>>()
        let handler = RecordingErrorHandler()
        let binding = channel.bind(handler)
        for status in 500..<503 { channel.emit(.unacceptableStatus(status)) }
        channel.finish()
        await binding.finished()
        #expect(handler.sequenceNumbers == [0, 1, 2])
        #expect(binding.droppedCount == 0)
    }

    @Test("unbinding ends forwarding; later errors are not handled")
    func unbind() async {
        let channel = ErrorChannel<ModuleRespError<SyncCode>>()
        let handler = RecordingErrorHandler()
        let binding = channel.bind(handler)
        binding.unbind()
        await binding.finished()
        #expect(channel.emit(.cancelled) == 0)
        #expect(handler.sequenceNumbers.isEmpty)
    }
}
