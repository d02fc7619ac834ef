/// How many refreshes an ``AuthenticationSession`` may start within an interval: 5 in 30 seconds
/// by default.
///
/// A server that refuses every new credential would otherwise be asked for one after every
/// request. When ``maximumRefreshes`` refreshes have already started within the last
/// ``interval``, no other is started: the requests that asked for it fail with
/// ``ReauthenticationError/Reason/excessiveRefresh(_:)``, carrying the window. Refreshes that failed
/// count too. The interval is measured on the session's clock.
///
/// <!-- listing: context=app,tokens -->
/// ```swift
/// let window = try RefreshWindow(maximumRefreshes: 3, interval: .seconds(60))
/// let session = AuthenticationSession(authenticator: TokenAuthenticator(), credential: token, window: window)
/// ```
public struct RefreshWindow: Sendable, Hashable, CustomStringConvertible {
    /// Why a window cannot be made.
    public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The number of refreshes is zero or negative.
        case nonPositiveMaximum(Int)
        /// The interval is zero or negative.
        case nonPositiveInterval(Duration)

        /// `a refresh window needs at least one refresh, not 0` or
        /// `a refresh window needs a positive interval, not -1.0 seconds`.
        public var description: String {
            switch self {
            case .nonPositiveMaximum(let count):
                return "a refresh window needs at least one refresh, not \(count)"
            case .nonPositiveInterval(let interval):
                return "a refresh window needs a positive interval, not \(interval)"
            }
        }
    }

    /// The most refreshes started within ``interval``.
    public let maximumRefreshes: Int
    /// The interval the refreshes are counted over.
    public let interval: Duration

    /// Creates a window.
    /// - Parameters:
    ///   - maximumRefreshes: The most refreshes within `interval` (5 by default); at least 1.
    ///   - interval: The interval (30 seconds by default); more than zero.
    /// - Throws: ``ConfigurationError`` when either is zero or negative.
    public init(maximumRefreshes: Int = 5, interval: Duration = .seconds(30)) throws(ConfigurationError) {
        guard maximumRefreshes > 0 else { throw .nonPositiveMaximum(maximumRefreshes) }
        guard interval > .zero else { throw .nonPositiveInterval(interval) }
        self.init(checkedMaximum: maximumRefreshes, interval: interval)
    }

    private init(checkedMaximum: Int, interval: Duration) {
        self.maximumRefreshes = checkedMaximum
        self.interval = interval
    }

    /// 5 refreshes in 30 seconds.
    public static let `default` = RefreshWindow(checkedMaximum: 5, interval: .seconds(30))

    /// `5 refreshes in 30.0 seconds`.
    public var description: String {
        "\(maximumRefreshes) refresh\(maximumRefreshes == 1 ? "" : "es") in \(interval)"
    }

    /// Whether one more refresh may start now, given when the earlier ones started.
    /// - Parameters:
    ///   - starts: When earlier refreshes started, oldest first, on the session's clock.
    ///   - now: The current time on the same clock.
    /// - Returns: `true` when fewer than ``maximumRefreshes`` started within ``interval`` before `now`.
    func allowsRefresh(after starts: [Duration], at now: Duration) -> Bool {
        starts.lazy.filter { now - $0 < interval }.count < maximumRefreshes
    }
}
