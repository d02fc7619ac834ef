/// Something that handles the errors of an ``ErrorChannel``.
///
/// Bind it with ``ErrorChannel/bind(_:)``: the channel then forwards every error to
/// ``handle(_:)``, one at a time and in order, until the binding is cancelled or the channel
/// finishes.
public protocol ErrorHandling<Failure>: Sendable {
    /// The errors handled.
    associatedtype Failure: Error
    /// Handles one error.
    /// - Parameter delivery: The error, with its sequence number and the count of errors dropped
    ///   before it.
    func handle(_ delivery: ErrorDelivery<Failure>) async
}

/// A handler bound to an ``ErrorChannel`` by ``ErrorChannel/bind(_:)``.
public final class ErrorBinding<Failure: Error>: Sendable {
    private let subscription: ErrorSubscription<Failure>
    private let task: Task<Void, Never>

    init(subscription: ErrorSubscription<Failure>, task: Task<Void, Never>) {
        self.subscription = subscription
        self.task = task
    }

    /// Stops forwarding: detaches the handler (an error being handled finishes first; buffered
    /// errors are discarded).
    public func unbind() {
        subscription.detach()
    }

    /// How many errors the handler's buffer dropped because it was too slow; it keeps its value
    /// after forwarding has ended.
    public var droppedCount: Int { subscription.droppedCount }

    /// Waits until forwarding has ended (after ``unbind()`` or the channel's
    /// ``ErrorChannel/finish()`` and the last buffered error handled).
    public func finished() async {
        await task.value
    }
}

extension ErrorChannel {
    /// Attaches a handler and forwards every error to it in a task of its own.
    /// - Parameter handler: The handler.
    /// - Returns: The binding; keep it to unbind or to wait for the end.
    public func bind(_ handler: some ErrorHandling<Failure>) -> ErrorBinding<Failure> {
        let subscription = attach()
        let task = Task {
            for await delivery in subscription {
                await handler.handle(delivery)
            }
        }
        return ErrorBinding(subscription: subscription, task: task)
    }
}
