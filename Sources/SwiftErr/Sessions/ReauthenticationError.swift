import Foundation

/// The session could not be renewed for a request; carried by
/// ``ModuleRespError/reauthenticationFailed(_:)``.
///
/// Every request that was waiting on the same refresh fails with the same error. None of them is
/// retried (``RetryPolicy`` never repeats it), and its presentation offers "Sign In" and "Cancel":
/// the person has to sign in again.
///
/// <!-- listing: context=app -->
/// ```swift
/// do {
///     let item = try await client.send(request, returning: ClassItem.self, module: StudyGroupCode.self)
/// } catch .reauthenticationFailed(let failure) {
///     log("session lost: \(failure)")
///     router.showSignIn()
/// } catch {
///     log("request failed: \(error)")
/// }
/// ```
public struct ReauthenticationError: Error, Sendable, CustomStringConvertible {
    /// Why the session could not be renewed.
    public enum Reason: Sendable, Hashable {
        /// The authenticator's `refresh` threw; ``ReauthenticationError/underlyingError`` keeps
        /// the error.
        case refreshFailed
        /// The refresh window was full: this refresh would have been one too many within it.
        case excessiveRefresh(RefreshWindow)
        /// The request, sent again with the new credential, was refused again;
        /// ``ReauthenticationError/underlyingError`` keeps that answer (a `ModuleRespError`).
        case refusedAfterRefresh
        /// The authenticator's `refresh` sent a request through a client of the same session: that
        /// request would wait for the refresh it is part of, which would never end. The refresh must
        /// send through a client without this session.
        case refreshUsesSession
    }

    /// Why the session could not be renewed.
    public let reason: Reason
    /// What the refresh threw, or the answer that refused the request sent again; `nil` for
    /// ``Reason/excessiveRefresh(_:)``.
    public let underlyingError: (any Error)?

    /// Creates the error.
    /// - Parameters:
    ///   - reason: Why the session could not be renewed.
    ///   - underlyingError: The refresh's error or the second refusal, if any.
    public init(reason: Reason, underlyingError: (any Error)? = nil) {
        self.reason = reason
        self.underlyingError = underlyingError
    }

    /// `refreshing the credential failed: …`, `more than 5 refreshes in 30.0 seconds`, or
    /// `the request was refused again after the credential was refreshed: …`.
    public var description: String {
        let cause = underlyingError.map { ": \(String(describing: $0))" } ?? ""
        switch reason {
        case .refreshFailed:
            return "refreshing the credential failed\(cause)"
        case .excessiveRefresh(let window):
            return "more than \(window)"
        case .refusedAfterRefresh:
            return "the request was refused again after the credential was refreshed\(cause)"
        case .refreshUsesSession:
            return
                "the refresh sent a request through a client of its own session, which would wait for the refresh itself; send the refresh's request through a client without the session"
        }
    }
}

extension ReauthenticationError: LocalizedError {
    /// "Your session has ended. Please sign in again." / "登录已失效,请重新登录。", in `Language.current`.
    public var errorDescription: String? {
        Self.title.text(in: Language.current)
    }

    /// Why, in `Language.current` (``reason(in:)``).
    public var failureReason: String? {
        reason(in: Language.current)
    }

    /// "Your session has ended. Please sign in again." / "登录已失效,请重新登录。"
    public static let title = LocalizedText(
        english: "Your session has ended. Please sign in again.", simplifiedChinese: "登录已失效,请重新登录。")

    /// Why the session could not be renewed, as a sentence in `language`.
    /// - Parameter language: The language wanted.
    /// - Returns: The reason.
    public func reason(in language: Language) -> String {
        let zh = language.usesSimplifiedChinese
        switch reason {
        case .refreshFailed:
            return zh ? "续期登录失败。" : "Renewing the session failed."
        case .excessiveRefresh(let window):
            let seconds = Self.seconds(window.interval)
            let count = window.maximumRefreshes
            return zh
                ? "\(seconds) 秒内已续期 \(count) 次,服务器仍要求重新登录。"
                : "The session was renewed \(count) time\(count == 1 ? "" : "s") within \(seconds) seconds, and the server still asked to sign in again."
        case .refusedAfterRefresh:
            return zh ? "登录续期后,服务器仍拒绝了该请求。" : "The server refused the request again after the session was renewed."
        case .refreshUsesSession:
            return zh
                ? "续期登录的请求使用了正在续期的同一会话。"
                : "The request that renews the session was sent with the session it renews."
        }
    }

    /// Whole seconds when the interval has no fraction, otherwise with up to three decimals.
    private static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        if attoseconds == 0 { return String(whole) }
        let value = Double(whole) + Double(attoseconds) / 1e18
        return String(format: "%.3g", value)
    }
}
