/// Producers emit errors; any number of handlers consume them, each as an `AsyncSequence`.
///
/// This is the seed's `ErrorEmittable` / `ErrorHandlable` pair (an RxSwift `BehaviorRelay` bound
/// to handlers) rebuilt on Swift concurrency:
///
/// ```swift
/// let errors = ErrorChannel<ModuleRespError<StudyGroupCode>>()
/// let handler = errors.attach()                 // in the view's task
/// Task { for await delivery in handler { show(delivery.error) } }
/// errors.emit(.module(.wrongTeamCode))          // from the view model
/// handler.detach()                              // when the view goes away
/// ```
///
/// ## Delivery guarantees and the buffer policy
/// - Every error emitted while a handler is attached is delivered to it, in emission order,
///   unless its buffer overflows (below). Errors emitted while no handler is attached are not
///   kept for later handlers; ``emit(_:)`` returns how many handlers got the error and
///   ``unhandledCount`` counts those that reached none.
/// - Each handler has its own buffer of ``bufferLimit`` errors, so a slow handler never holds up
///   producers or other handlers (``emit(_:)`` is synchronous and never suspends).
/// - When a handler's buffer is full, the **oldest** buffered error is dropped, and the drop is
///   made visible: the next delivery's ``ErrorDelivery/droppedBefore`` says how many were
///   dropped, ``ErrorSubscription/droppedCount`` and ``droppedCount`` count them, and the
///   ``ErrorDelivery/sequenceNumber``s show the gap. Newest errors are kept because they
///   describe the current state (the seed's relay kept only the latest).
/// - ``ErrorSubscription/detach()`` ends that handler's sequence at once; ``finish()`` ends every
///   sequence after each has drained its buffer.
public final class ErrorChannel<Failure: Error>: Sendable {
    struct Subscriber {
        var buffer: [ErrorDelivery<Failure>] = []
        var droppedSinceDelivery = 0
        var droppedTotal = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<ErrorDelivery<Failure>?, Never>)] = []
    }

    struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextSubscriberID: UInt64 = 0
        var nextWaiterID: UInt64 = 0
        var nextSequenceNumber: UInt64 = 0
        var unhandled = 0
        var dropped = 0
        var finished = false
        /// Drop totals of handlers whose sequence ended with ``finish()``, so that
        /// ``ErrorSubscription/droppedCount`` stays true after the end (bounded by the handlers
        /// attached when the channel finished: none can attach after).
        var endedDrops: [UInt64: Int] = [:]
    }

    /// The size of each handler's buffer (at least 1).
    public let bufferLimit: Int
    let state = Locked(State())

    /// Creates a channel.
    /// - Parameter bufferLimit: Each handler's buffer size; values below 1 mean 1.
    public init(bufferLimit: Int = 64) {
        self.bufferLimit = max(1, bufferLimit)
    }

    /// Attaches a handler: it receives every error emitted from now until it detaches.
    /// - Returns: The handler's sequence of deliveries. After ``finish()`` it is already ended.
    public func attach() -> ErrorSubscription<Failure> {
        let id: UInt64 = state.withLock { state in
            defer { state.nextSubscriberID += 1 }
            if !state.finished { state.subscribers[state.nextSubscriberID] = Subscriber() }
            return state.nextSubscriberID
        }
        return ErrorSubscription(channel: self, id: id)
    }

    /// Emits an error to every attached handler. Never suspends.
    /// - Parameter error: The error.
    /// - Returns: How many handlers it was delivered or buffered to; `0` after ``finish()`` or
    ///   when none is attached (then ``unhandledCount`` grows).
    @discardableResult
    public func emit(_ error: Failure) -> Int {
        var resumes: [(CheckedContinuation<ErrorDelivery<Failure>?, Never>, ErrorDelivery<Failure>)] = []
        let count: Int = state.withLock { state in
            guard !state.finished else { return 0 }
            let number = state.nextSequenceNumber
            state.nextSequenceNumber += 1
            if state.subscribers.isEmpty {
                state.unhandled += 1
                return 0
            }
            for id in state.subscribers.keys.sorted() {
                var subscriber = state.subscribers[id]!
                if !subscriber.waiters.isEmpty {
                    // A waiting handler has an empty buffer: hand the error over directly.
                    let waiter = subscriber.waiters.removeFirst()
                    resumes.append(
                        (
                            waiter.continuation,
                            ErrorDelivery(
                                error: error, sequenceNumber: number,
                                droppedBefore: subscriber.droppedSinceDelivery)
                        ))
                    subscriber.droppedSinceDelivery = 0
                } else {
                    if subscriber.buffer.count >= bufferLimit {
                        subscriber.buffer.removeFirst()
                        subscriber.droppedSinceDelivery += 1
                        subscriber.droppedTotal += 1
                        state.dropped += 1
                    }
                    subscriber.buffer.append(ErrorDelivery(error: error, sequenceNumber: number, droppedBefore: 0))
                }
                state.subscribers[id] = subscriber
            }
            return state.subscribers.count
        }
        for (continuation, delivery) in resumes { continuation.resume(returning: delivery) }
        return count
    }

    /// Ends every handler's sequence once it has drained its buffer; later emissions are refused.
    public func finish() {
        let waiters: [CheckedContinuation<ErrorDelivery<Failure>?, Never>] = state.withLock { state in
            state.finished = true
            var ended: [CheckedContinuation<ErrorDelivery<Failure>?, Never>] = []
            for (id, subscriber) in state.subscribers {
                ended += subscriber.waiters.map(\.continuation)
                // Waiters exist only when the buffer is empty, so the handler is done.
                if subscriber.waiters.isEmpty == false || subscriber.buffer.isEmpty {
                    state.endedDrops[id] = subscriber.droppedTotal
                    state.subscribers[id] = nil
                } else {
                    state.subscribers[id]?.waiters = []
                }
            }
            return ended
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// How many handlers are attached.
    public var handlerCount: Int { state.withLock { $0.subscribers.count } }
    /// How many errors were emitted while no handler was attached.
    public var unhandledCount: Int { state.withLock { $0.unhandled } }
    /// How many buffered errors were dropped, over all handlers.
    public var droppedCount: Int { state.withLock { $0.dropped } }
    /// Whether ``finish()`` was called.
    public var isFinished: Bool { state.withLock { $0.finished } }

    // MARK: Subscriber side (used by ErrorSubscription)

    func next(subscriber id: UInt64) async -> ErrorDelivery<Failure>? {
        let waiterID: UInt64 = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ErrorDelivery<Failure>?, Never>) in
                // (true, x): answer x now; (false, nil): the continuation is registered as a waiter.
                let immediate: (ready: Bool, delivery: ErrorDelivery<Failure>?) = state.withLock { state in
                    guard var subscriber = state.subscribers[id] else { return (true, nil) }
                    if !subscriber.buffer.isEmpty {
                        let first = subscriber.buffer.removeFirst()
                        let delivery = ErrorDelivery(
                            error: first.error, sequenceNumber: first.sequenceNumber,
                            droppedBefore: subscriber.droppedSinceDelivery)
                        subscriber.droppedSinceDelivery = 0
                        if subscriber.buffer.isEmpty && state.finished {
                            state.endedDrops[id] = subscriber.droppedTotal
                            state.subscribers[id] = nil
                        } else {
                            state.subscribers[id] = subscriber
                        }
                        return (true, delivery)
                    }
                    subscriber.waiters.append((waiterID, continuation))
                    state.subscribers[id] = subscriber
                    return (false, nil)
                }
                if immediate.ready {
                    continuation.resume(returning: immediate.delivery)
                } else if Task.isCancelled {
                    // The cancellation handler may have run before the waiter was registered.
                    cancelWaiter(waiterID, subscriber: id)
                }
            }
        } onCancel: {
            cancelWaiter(waiterID, subscriber: id)
        }
    }

    /// Ends a waiting `next()` whose task was cancelled, if it is still waiting.
    private func cancelWaiter(_ waiterID: UInt64, subscriber id: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<ErrorDelivery<Failure>?, Never>? in
            guard let index = state.subscribers[id]?.waiters.firstIndex(where: { $0.id == waiterID }) else {
                return nil
            }
            return state.subscribers[id]?.waiters.remove(at: index).continuation
        }
        continuation?.resume(returning: nil)
    }

    func detach(subscriber id: UInt64) {
        let waiters = state.withLock { state in
            state.subscribers.removeValue(forKey: id)?.waiters.map(\.continuation) ?? []
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    func droppedCount(subscriber id: UInt64) -> Int? {
        state.withLock { $0.subscribers[id]?.droppedTotal ?? $0.endedDrops[id] }
    }
}
