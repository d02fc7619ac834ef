/// An error that can carry the server's `Retry-After` answer (``HTTPStatusError`` does).
///
/// ``Retrier`` reads `Retry-After` from the typed error (``ModuleRespError/retryAfter``, kept by
/// ``ModuleRespError/unacceptableStatus(_:)-enum.case``) and, when that carries none, asks the
/// error the attempt threw, so a transport's own error type can conform and have `Retry-After`
/// honoured even when a custom adapter maps it to a bare status.
public protocol RetryAfterProviding: Error {
    /// The server's `Retry-After` answer, if it sent one.
    var retryAfter: RetryAfter? { get }
}
