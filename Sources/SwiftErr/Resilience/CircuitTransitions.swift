/// The changes of state of an ``UpstreamProtection``'s circuit, as an `AsyncSequence`
/// (``UpstreamProtection/circuitTransitions(bufferingNewest:)``).
///
/// <!-- listing: context=gateway -->
/// ```swift
/// for await transition in protection.circuitTransitions() {
///     logger.notice("circuit \(transition)")   // closed → open
/// }
/// ```
///
/// Each iterator listens from the moment it is made until it is dropped, its task is cancelled, or
/// the loop ends: the protection keeps nothing for a listener that went away, and a sequence that is
/// never iterated never registers.
public struct CircuitTransitions: AsyncSequence, Sendable {
    /// A change of state.
    public typealias Element = CircuitTransition

    let protection: UpstreamProtection
    let buffer: Int

    /// Starts listening.
    /// - Returns: An iterator over the changes from now on.
    public func makeAsyncIterator() -> Iterator {
        // The initializer with a build closure (called at once), rather than `makeStream`, which
        // needs macOS 14 / iOS 17.
        var made: AsyncStream<CircuitTransition>.Continuation?
        let stream = AsyncStream(CircuitTransition.self, bufferingPolicy: .bufferingNewest(buffer)) { made = $0 }
        let continuation = made!
        let key = protection.addListener(continuation)
        continuation.onTermination = { [weak protection] _ in protection?.removeListener(key) }
        return Iterator(base: stream.makeAsyncIterator(), registration: Registration(continuation: continuation))
    }

    /// Iterates the changes of state.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<CircuitTransition>.Iterator
        let registration: Registration

        /// The next change of state, or `nil` when the task is cancelled.
        /// - Returns: The change, or `nil`.
        public mutating func next() async -> CircuitTransition? {
            await base.next()
        }
    }

    /// Ends the listener's stream when its iterator is dropped, which unregisters it.
    final class Registration: Sendable {
        let continuation: AsyncStream<CircuitTransition>.Continuation

        init(continuation: AsyncStream<CircuitTransition>.Continuation) {
            self.continuation = continuation
        }

        deinit {
            continuation.finish()
        }
    }
}
