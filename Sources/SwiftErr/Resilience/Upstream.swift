import Foundation

/// An upstream as ``UpstreamProtections`` tells upstreams apart: a host and a port.
///
/// `https://API.example.com/v1/classes` and `https://api.example.com:443/login` are the same
/// upstream (`api.example.com:443`); `http://api.example.com` (port 80) and
/// `https://api.example.com:8443` are two others. The scheme, path and query play no part.
public struct Upstream: Sendable, Hashable, CustomStringConvertible {
    /// The host, lower case: a name (`api.example.com`) or an address (`127.0.0.1`, `::1`).
    public let host: String
    /// The port: the URL's, or its scheme's default (80 for `http` and `ws`, 443 for `https` and
    /// `wss`); `nil` when the URL names none and its scheme has no default.
    public let port: Int?

    /// Creates an upstream.
    /// - Parameters:
    ///   - host: The host; stored lower case, as host names compare without regard to case.
    ///   - port: The port, or `nil`.
    public init(host: String, port: Int?) {
        // Most hosts are lower case already; lowercasing one that is costs a new string.
        self.host =
            host.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            ? host.lowercased() : host
        self.port = port
    }

    /// The upstream a URL is sent to.
    /// - Parameter url: An absolute URL.
    /// - Returns: `nil` when the URL has no host (a file URL, a relative one).
    public init?(url: URL) {
        guard let host = url.host, !host.isEmpty else { return nil }
        self.init(host: host, port: url.port ?? url.scheme.flatMap(Self.defaultPort(ofScheme:)))
    }

    /// The port a scheme uses when a URL names none: 80 for `http` and `ws`, 443 for `https` and
    /// `wss`.
    /// - Parameter scheme: The scheme, in any case.
    /// - Returns: The port, or `nil` for another scheme.
    public static func defaultPort(ofScheme scheme: String) -> Int? {
        switch scheme.lowercased() {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    /// `api.example.com:443`, or the host alone without a port.
    public var description: String {
        port.map { "\(host):\($0)" } ?? host
    }
}
