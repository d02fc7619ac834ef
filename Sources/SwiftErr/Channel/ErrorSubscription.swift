/// One handler attached to an ``ErrorChannel``: an `AsyncSequence` of ``ErrorDelivery``s.
///
/// The sequence ends (its iterator returns `nil`) after ``detach()``, when the iterating task is
/// cancelled (after the buffered errors; the handler is then detached), and after the channel's
/// ``ErrorChannel/finish()`` or release once the buffer is drained. Releasing the last reference to
/// the subscription detaches it.
///
/// Iterate a subscription from one task at a time; attach one handler per task that should see
/// every error.
public final class ErrorSubscription<Reported: Error>: AsyncSequence, Sendable {
    /// The element: one delivered error.
    public typealias Element = ErrorDelivery<Reported>
    /// The sequence never throws.
    public typealias Failure = Never

    private let stream: AsyncStream<EmittedError<Reported>>
    private let continuation: AsyncStream<EmittedError<Reported>>.Continuation
    private let progress: Locked<SubscriptionProgress>

    init(
        stream: AsyncStream<EmittedError<Reported>>,
        continuation: AsyncStream<EmittedError<Reported>>.Continuation,
        progress: Locked<SubscriptionProgress>
    ) {
        self.stream = stream
        self.continuation = continuation
        self.progress = progress
    }

    deinit {
        continuation.finish()
    }

    /// Stops receiving: a waiting iteration ends with `nil`, buffered errors are discarded and
    /// later emissions are not delivered here. Calling it again does nothing.
    public func detach() {
        progress.withLock { $0.detached = true }
        continuation.finish()
    }

    /// How many errors this handler's buffer has dropped because the handler was too slow; it
    /// keeps its value after the sequence has ended.
    public var droppedCount: Int { progress.withLock { $0.dropped } }

    /// The next error, or `nil` when the sequence has ended.
    /// - Parameter actor: The caller's actor; the wait does not leave it on macOS 15, iOS 18,
    ///   tvOS 18, watchOS 11, visionOS 2 and later, and on Linux (before those versions
    ///   `AsyncStream` cannot wait on the caller's actor, and the wait runs off it).
    /// - Returns: The delivery, or `nil`.
    public func next(isolation actor: isolated (any Actor)? = #isolation) async -> ErrorDelivery<Reported>? {
        var iterator = stream.makeAsyncIterator()
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return deliver(await iterator.next(isolation: actor))
        }
        return deliver(await iterator.next())
    }

    /// An iterator over the deliveries.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: self, base: stream.makeAsyncIterator())
    }

    /// Turns what the stream gave into a delivery: `nil` once detached, and the count of errors
    /// dropped since the previous delivery read from the gap in sequence numbers (while a handler
    /// is attached every emission is yielded to its stream, so a gap is exactly the drops).
    private func deliver(_ emitted: EmittedError<Reported>?) -> ErrorDelivery<Reported>? {
        guard let emitted else { return nil }
        return progress.withLock { progress in
            guard !progress.detached else { return nil }
            // The channel yields in increasing order, so the number is at least the expected one;
            // the clamp keeps a broken order from trapping here (the tests check the order).
            let dropped = emitted.sequenceNumber - Swift.min(emitted.sequenceNumber, progress.expectedSequenceNumber)
            progress.expectedSequenceNumber = emitted.sequenceNumber + 1
            return ErrorDelivery(
                error: emitted.error, sequenceNumber: emitted.sequenceNumber, droppedBefore: Int(dropped))
        }
    }

    /// Iterates an ``ErrorSubscription``.
    public struct Iterator: AsyncIteratorProtocol {
        let subscription: ErrorSubscription<Reported>
        var base: AsyncStream<EmittedError<Reported>>.Iterator

        /// The next delivery, or `nil` when the sequence has ended.
        /// - Returns: The delivery, or `nil`.
        public mutating func next() async -> ErrorDelivery<Reported>? {
            subscription.deliver(await base.next())
        }

        /// The next delivery, or `nil` when the sequence has ended, without leaving the caller's
        /// actor. Before macOS 15, iOS 18, tvOS 18, watchOS 11 and visionOS 2, `for await` calls
        /// ``next()`` instead.
        /// - Parameter actor: The caller's actor.
        /// - Returns: The delivery, or `nil`.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async -> ErrorDelivery<Reported>? {
            subscription.deliver(await base.next(isolation: actor))
        }
    }
}
