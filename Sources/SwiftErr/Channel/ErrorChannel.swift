/// Producers emit errors; any number of handlers consume them, each as an `AsyncSequence`.
///
/// <!-- listing: context=app -->
/// ```swift
/// let errors = ErrorChannel<ModuleRespError<StudyGroupCode>>()
/// let handler = errors.attach()                 // in the view's task
/// Task { for await delivery in handler { show(delivery.error) } }
/// errors.emit(.module(.wrongTeamCode))          // from the view model
/// handler.detach()                              // when the view goes away
/// ```
///
/// Each attached handler reads its own `AsyncStream` with a `.bufferingNewest(bufferLimit)`
/// policy; the channel numbers the emissions and counts what the streams drop.
///
/// ## Delivery guarantees and the buffer policy
/// - Every error emitted while a handler is attached is delivered to it once, in emission order,
///   unless its buffer overflows (below). Errors emitted while no handler is attached are not
///   kept for later handlers; ``emit(_:)`` returns how many handlers got the error and
///   ``unhandledCount`` counts those that reached none.
/// - Each handler has its own buffer of ``bufferLimit`` errors, so a slow handler never holds up
///   producers or other handlers (``emit(_:)`` is synchronous and never suspends).
/// - When a handler's buffer is full, the **oldest** buffered error is dropped, and the drop is
///   made visible: the next delivery's ``ErrorDelivery/droppedBefore`` says how many were
///   dropped, ``ErrorSubscription/droppedCount`` and ``droppedCount`` count them, and the
///   ``ErrorDelivery/sequenceNumber``s show the gap. Newest errors are kept because they
///   describe the current state.
/// - A handler's sequence ends after ``ErrorSubscription/detach()`` or the release of its
///   subscription (at once, buffered errors discarded), when the task iterating it is cancelled
///   (after the buffered errors; the handler is detached), and after ``finish()`` or the release
///   of the channel (after the buffered errors). The counters keep their values after the end.
public final class ErrorChannel<Failure: Error>: Sendable {
    /// One attached handler, as the channel sees it.
    struct Handler {
        let continuation: AsyncStream<EmittedError<Failure>>.Continuation
        let progress: Locked<SubscriptionProgress>
    }

    struct State {
        var handlers: [UInt64: Handler] = [:]
        var nextHandlerID: UInt64 = 0
        var nextSequenceNumber: UInt64 = 0
        var unhandled = 0
        var dropped = 0
        var finished = false
    }

    /// The size of each handler's buffer (at least 1).
    public let bufferLimit: Int
    /// Lock order: `state`, then a handler's `progress`; never the other way round. Streams are
    /// yielded to under `state` (so each handler sees the sequence numbers in increasing order)
    /// but finished outside it, because finishing runs the termination handler, which takes it.
    private let state = Locked(State())

    /// Creates a channel.
    /// - Parameter bufferLimit: Each handler's buffer size; values below 1 mean 1.
    public init(bufferLimit: Int = 64) {
        self.bufferLimit = max(1, bufferLimit)
    }

    deinit {
        // Nobody can emit any more: end the sequences so that their handlers do not wait forever.
        for handler in state.withLock({ $0.handlers.values }) { handler.continuation.finish() }
    }

    /// Attaches a handler: it receives every error emitted from now until its sequence ends.
    /// - Returns: The handler's sequence of deliveries. After ``finish()`` it is already ended.
    public func attach() -> ErrorSubscription<Failure> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: EmittedError<Failure>.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        let progress = Locked(SubscriptionProgress())
        let attached: Bool = state.withLock { state in
            guard !state.finished else { return false }
            let id = state.nextHandlerID
            state.nextHandlerID += 1
            progress.withLock { $0.expectedSequenceNumber = state.nextSequenceNumber }
            // Runs once, however the stream ends: detach, release, cancellation or finish.
            continuation.onTermination = { [weak self] _ in self?.remove(handler: id) }
            state.handlers[id] = Handler(continuation: continuation, progress: progress)
            return true
        }
        if !attached { continuation.finish() }
        return ErrorSubscription(stream: stream, continuation: continuation, progress: progress)
    }

    /// Emits an error to every attached handler. Never suspends.
    /// - Parameter error: The error.
    /// - Returns: How many handlers it was delivered or buffered to; `0` after ``finish()`` or
    ///   when none is attached (then ``unhandledCount`` grows).
    @discardableResult
    public func emit(_ error: Failure) -> Int {
        state.withLock { state in
            guard !state.finished else { return 0 }
            let emitted = EmittedError(error: error, sequenceNumber: state.nextSequenceNumber)
            state.nextSequenceNumber += 1
            var delivered = 0
            for handler in state.handlers.values {
                switch handler.continuation.yield(emitted) {
                case .enqueued:
                    delivered += 1
                case .dropped:
                    // The stream dropped its oldest buffered error to make room for this one.
                    delivered += 1
                    state.dropped += 1
                    handler.progress.withLock { $0.dropped += 1 }
                case .terminated:
                    // The stream is ending; its termination handler is waiting to remove it.
                    break
                @unknown default:
                    break
                }
            }
            if delivered == 0 { state.unhandled += 1 }
            return delivered
        }
    }

    /// Ends every handler's sequence once it has drained its buffer; later emissions are refused
    /// and later handlers start ended.
    public func finish() {
        let ending: [Handler] = state.withLock { state in
            state.finished = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in ending { handler.continuation.finish() }
    }

    /// How many handlers are attached (`0` after ``finish()``).
    public var handlerCount: Int { state.withLock { $0.handlers.count } }
    /// How many emitted errors reached no handler.
    public var unhandledCount: Int { state.withLock { $0.unhandled } }
    /// How many buffered errors were dropped, over all handlers, since the channel was created.
    public var droppedCount: Int { state.withLock { $0.dropped } }
    /// Whether ``finish()`` was called.
    public var isFinished: Bool { state.withLock { $0.finished } }

    private func remove(handler id: UInt64) {
        state.withLock { _ = $0.handlers.removeValue(forKey: id) }
    }
}

/// One emission as it waits in a handler's stream.
struct EmittedError<Failure: Error>: Sendable {
    let error: Failure
    let sequenceNumber: UInt64
}

/// What a handler's subscription and the channel share about it.
struct SubscriptionProgress {
    /// The sequence number the next delivery has when nothing was dropped before it.
    var expectedSequenceNumber: UInt64 = 0
    /// How many errors the handler's stream dropped.
    var dropped = 0
    /// Set by ``ErrorSubscription/detach()``: deliveries still buffered are discarded.
    var detached = false
}
