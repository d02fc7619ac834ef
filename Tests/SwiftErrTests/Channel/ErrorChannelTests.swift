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
        let waiting = Task { await leaving.next() == nil }
        leaving.detach()
        #expect(await Ending.value(of: waiting) == true)
        #expect(channel.handlerCount == 1)
        #expect(channel.emit(.cancelled) == 1)
        #expect(await Ending.isEnded(leaving))
        #expect(await staying.next()?.error.isCancelled == true)
        leaving.detach()  // a second detach does nothing
        #expect(channel.handlerCount == 1)
    }

    @Test("detaching discards buffered errors and ends a running iteration at once")
    func detachDiscardsBuffer() async {
        let channel = ErrorChannel<Failure>()
        let handler = channel.attach()
        for status in 500..<503 { channel.emit(.unacceptableStatus(status)) }
        #expect(await handler.next()?.sequenceNumber == 0)
        handler.detach()
        #expect(await Ending.isEnded(handler))
        #expect(await Ending.deliveries(of: handler)?.count == 0)
        #expect(channel.handlerCount == 0)
        #expect(channel.emit(.cancelled) == 0)
        #expect(channel.unhandledCount == 1)

        // A for-await loop in another task is ended too, whether it was waiting or not.
        let waiting = channel.attach()
        let loop = Task {
            var count = 0
            for await _ in waiting { count += 1 }
            return count
        }
        channel.emit(.cancelled)
        waiting.detach()
        #expect(await Ending.value(of: loop).map { $0 <= 1 } == true)
        #expect(channel.handlerCount == 0)
    }

    @Test("handlers attaching and detaching in between each get exactly their errors, once, in order")
    func attachDetachInBetween() async {
        let channel = ErrorChannel<Failure>()
        let early = channel.attach()
        var reached: [Int] = []
        for status in 500..<503 { reached.append(channel.emit(.unacceptableStatus(status))) }
        let late = channel.attach()
        for status in 503..<505 { reached.append(channel.emit(.unacceptableStatus(status))) }
        early.detach()
        for status in 505..<507 { reached.append(channel.emit(.unacceptableStatus(status))) }
        channel.finish()
        #expect(reached == [1, 1, 1, 2, 2, 1, 1])
        let lateSeen = await Ending.deliveries(of: late) ?? []
        #expect(lateSeen.map(\.sequenceNumber) == [3, 4, 5, 6])
        #expect(lateSeen.map(\.error.statusCode) == [503, 504, 505, 506])
        #expect(lateSeen.allSatisfy { $0.droppedBefore == 0 })
        // Detached with five errors buffered: none is delivered.
        #expect(await Ending.isEnded(early))
        #expect(channel.unhandledCount == 0)
        #expect(channel.droppedCount == 0)
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
        let waiting = Task { await idle.next() == nil }
        channel.finish()
        #expect(await Ending.value(of: waiting) == true)
        #expect(await buffered.next()?.error.isCancelled == true)
        #expect(await Ending.isEnded(buffered))
        #expect(channel.emit(.cancelled) == 0)
        #expect(channel.isFinished)
        #expect(channel.handlerCount == 0)
        #expect(await Ending.isEnded(channel.attach()))
    }

    @Test("counters keep their values after finish; emissions after it change nothing")
    func countersAfterFinish() async {
        let channel = ErrorChannel<Failure>(bufferLimit: 2)
        channel.emit(.cancelled)  // nobody attached: unhandled
        let slow = channel.attach()
        let fast = channel.attach()
        for status in 500..<506 {
            channel.emit(.unacceptableStatus(status))
            #expect(await fast.next() != nil)
        }
        channel.finish()
        let slowSeen = await Ending.deliveries(of: slow) ?? []
        #expect(slowSeen.map(\.sequenceNumber) == [5, 6])
        #expect(slowSeen.map(\.droppedBefore) == [4, 0])
        #expect(await Ending.isEnded(fast))
        #expect(channel.emit(.cancelled) == 0)
        #expect(slow.droppedCount == 4)
        #expect(fast.droppedCount == 0)
        #expect(channel.droppedCount == 4)
        #expect(channel.unhandledCount == 1)
    }

    @Test("cancelling the iterating task ends its sequence and detaches the handler")
    func cancellingIteration() async {
        let channel = ErrorChannel<Failure>()
        let handler = channel.attach()
        let other = channel.attach()
        let (received, signal) = AsyncStream.makeStream(of: UInt64.self)
        let task = Task {
            var seen: [UInt64] = []
            for await delivery in handler {
                seen.append(delivery.sequenceNumber)
                signal.yield(delivery.sequenceNumber)
            }
            return seen
        }
        channel.emit(.cancelled)
        var signals = received.makeAsyncIterator()
        #expect(await signals.next() == 0)
        task.cancel()
        // Whether the task was waiting or about to wait, its iteration ends.
        #expect(await Ending.value(of: task) == [0])
        #expect(channel.handlerCount == 1)
        #expect(channel.emit(.cancelled) == 1)
        #expect(await Ending.isEnded(handler))
        #expect(await other.next()?.sequenceNumber == 0)
        #expect(await other.next()?.sequenceNumber == 1)
    }

    @Test("a task cancelled with errors buffered receives them, then its iteration ends")
    func cancellingDrainsBuffer() async {
        let channel = ErrorChannel<Failure>()
        let handler = channel.attach()
        for status in 500..<503 { channel.emit(.unacceptableStatus(status)) }
        let task = Task {
            var seen: [UInt64] = []
            for await delivery in handler {
                seen.append(delivery.sequenceNumber)
                // Cancel after the first delivery: the stream ends, the buffered ones still arrive.
                if seen.count == 1 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return seen
        }
        #expect(await Ending.value(of: task) == [0, 1, 2])
        #expect(channel.handlerCount == 0)
        #expect(channel.emit(.cancelled) == 0)
        #expect(channel.unhandledCount == 1)
        #expect(handler.droppedCount == 0)
    }

    @Test("releasing the channel ends its handlers' sequences after their buffers")
    func releasingChannelEndsHandlers() async {
        var channel: ErrorChannel<Failure>? = ErrorChannel<Failure>()
        let handler = channel!.attach()
        channel!.emit(.cancelled)
        channel = nil
        #expect(await Ending.deliveries(of: handler)?.map(\.sequenceNumber) == [0])
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

/// A handler that holds its first delivery until ``open()``; says when it has started.
final class GatedErrorHandler: ErrorHandling {
    private struct State {
        var deliveries: [ErrorDelivery<ModuleRespError<SyncCode>>] = []
        var gate: CheckedContinuation<Void, Never>?
        var isOpen = false
    }
    private let state = Locked(State())
    let started: AsyncStream<UInt64>
    private let startedSignal: AsyncStream<UInt64>.Continuation

    init() {
        (started, startedSignal) = AsyncStream.makeStream(of: UInt64.self)
    }

    var deliveries: [ErrorDelivery<ModuleRespError<SyncCode>>] { state.withLock { $0.deliveries } }

    func open() {
        let gate = state.withLock { state in
            state.isOpen = true
            defer { state.gate = nil }
            return state.gate
        }
        gate?.resume()
    }

    func handle(_ delivery: ErrorDelivery<ModuleRespError<SyncCode>>) async {
        let first = state.withLock { state in
            state.deliveries.append(delivery)
            return state.deliveries.count == 1
        }
        guard first else { return }
        await withCheckedContinuation { (gate: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.gate = gate }
                return state.isOpen
            }
            if isOpen { gate.resume() }
            startedSignal.yield(delivery.sequenceNumber)
        }
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
        #expect(await Ending.value(of: Task { await binding.finished() }) != nil)
        #expect(handler.sequenceNumbers == [0, 1, 2])
        #expect(binding.droppedCount == 0)
    }

    @Test("a bound handler that falls behind loses the oldest errors, and its drop count outlives the binding")
    func bindDrops() async {
        let channel = ErrorChannel<ModuleRespError<SyncCode>>(bufferLimit: 2)
        let handler = GatedErrorHandler()
        let binding = channel.bind(handler)
        channel.emit(.cancelled)
        var started = handler.started.makeAsyncIterator()
        #expect(await started.next() == 0)  // the handler holds error 0 until the gate opens
        for status in 500..<505 { channel.emit(.unacceptableStatus(status)) }
        channel.finish()
        handler.open()
        #expect(await Ending.value(of: Task { await binding.finished() }) != nil)
        #expect(handler.deliveries.map(\.sequenceNumber) == [0, 4, 5])
        #expect(handler.deliveries.map(\.droppedBefore) == [0, 3, 0])
        #expect(binding.droppedCount == 3)
        #expect(channel.droppedCount == 3)
    }

    @Test("unbinding ends forwarding; later errors are not handled")
    func unbind() async {
        let channel = ErrorChannel<ModuleRespError<SyncCode>>()
        let handler = RecordingErrorHandler()
        let binding = channel.bind(handler)
        binding.unbind()
        #expect(await Ending.value(of: Task { await binding.finished() }) != nil)
        #expect(channel.emit(.cancelled) == 0)
        #expect(handler.sequenceNumbers.isEmpty)
    }
}
