/// An error that can carry the server's `Retry-After` answer (``HTTPStatusError`` does).
///
/// ``Retrier`` asks the original error thrown by an attempt for it, so transports with their own
/// error types can conform and have `Retry-After` honoured.
public protocol RetryAfterProviding: Error {
    /// The server's `Retry-After` answer, if it sent one.
    var retryAfter: RetryAfter? { get }
}
