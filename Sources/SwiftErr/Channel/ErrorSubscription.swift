/// One handler attached to an ``ErrorChannel``: an `AsyncSequence` of ``ErrorDelivery``s.
///
/// The sequence ends (its iterator returns `nil`) after ``detach()``, after the channel's
/// ``ErrorChannel/finish()`` once the buffer is drained, or when the iterating task is cancelled.
/// Releasing the last reference to the subscription detaches it.
public final class ErrorSubscription<Reported: Error>: AsyncSequence, Sendable {
    /// The element: one delivered error.
    public typealias Element = ErrorDelivery<Reported>
    /// The sequence never throws.
    public typealias Failure = Never

    private let channel: ErrorChannel<Reported>
    private let id: UInt64
    private let droppedAtDetach = Locked<Int?>(nil)

    init(channel: ErrorChannel<Reported>, id: UInt64) {
        self.channel = channel
        self.id = id
    }

    deinit {
        channel.detach(subscriber: id)
    }

    /// Stops receiving: a waiting iteration ends with `nil`, buffered errors are discarded and
    /// later emissions are not delivered here. Calling it again does nothing.
    public func detach() {
        let dropped = channel.droppedCount(subscriber: id)
        droppedAtDetach.withLock { if $0 == nil { $0 = dropped ?? 0 } }
        channel.detach(subscriber: id)
    }

    /// How many errors this handler's buffer has dropped because the handler was too slow.
    public var droppedCount: Int {
        channel.droppedCount(subscriber: id) ?? droppedAtDetach.withLock { $0 } ?? 0
    }

    /// The next error, or `nil` when the sequence has ended.
    /// - Returns: The delivery, or `nil`.
    public func next() async -> ErrorDelivery<Reported>? {
        await channel.next(subscriber: id)
    }

    /// An iterator over the deliveries.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: self)
    }

    /// Iterates an ``ErrorSubscription``.
    public struct Iterator: AsyncIteratorProtocol {
        let subscription: ErrorSubscription<Reported>

        /// The next delivery, or `nil` when the sequence has ended.
        /// - Returns: The delivery, or `nil`.
        public mutating func next() async -> ErrorDelivery<Reported>? {
            await subscription.next()
        }
    }
}
