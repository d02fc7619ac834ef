import Foundation

/// The server's `Retry-After` answer (RFC 9110 §10.2.3): a number of seconds to wait, or the
/// instant from which to try again.
public enum RetryAfter: Sendable, Hashable, CustomStringConvertible {
    /// `Retry-After: 120`: wait this many seconds.
    case seconds(Int64)
    /// `Retry-After: Fri, 31 Dec 1999 23:59:59 GMT`: try again from this instant.
    case date(Date)

    /// Reads a `Retry-After` header value.
    ///
    /// Delta-seconds are one or more ASCII digits (a value too large for `Int64` becomes
    /// `Int64.max` seconds, which any policy limit rejects); anything else must be an HTTP-date
    /// (see `HTTPDate.parse(_:)`).
    /// - Parameter headerValue: The header's value.
    /// - Returns: `nil` when the value is neither form (e.g. `"-5"`, `"1.5"`, `"soon"`).
    public init?(headerValue: String) {
        let trimmed = headerValue.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            self = .seconds(Int64(trimmed) ?? Int64.max)
        } else if let date = HTTPDate.parse(trimmed) {
            self = .date(date)
        } else {
            return nil
        }
    }

    /// How long to wait from `now`.
    /// - Parameter now: The current wall-clock time (injected so tests are deterministic).
    /// - Returns: The delay; `.zero` for a date already past.
    public func delay(from now: Date) -> Duration {
        switch self {
        case .seconds(let seconds):
            return .seconds(max(0, seconds))
        case .date(let date):
            let interval = date.timeIntervalSince(now)
            guard interval > 0 else { return .zero }
            // Whole milliseconds, rounded up so the wait never ends before the server's instant, are
            // precise enough and keep huge dates from overflowing.
            let milliseconds =
                interval * 1000 >= Double(Int64.max) ? Int64.max : Int64((interval * 1000).rounded(.up))
            return .milliseconds(milliseconds)
        }
    }

    /// The header value this answer stands for: `120`, or an IMF-fixdate such as
    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    public var description: String {
        switch self {
        case .seconds(let seconds): return String(seconds)
        case .date(let date): return HTTPDate.format(date)
        }
    }
}
