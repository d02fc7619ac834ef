import Foundation

/// An upstream as ``UpstreamProtections`` tells upstreams apart: by default a host and a port; by
/// the registry's ``UpstreamKeying`` also a path prefix, or a name of the caller's.
///
/// `https://API.example.com/v1/classes` and `https://api.example.com:443/login` are the same
/// upstream by host (`api.example.com:443`); `http://api.example.com` (port 80) and
/// `https://api.example.com:8443` are two others. The scheme and query play no part; the path only
/// under ``UpstreamKeying/pathPrefix(segments:)``.
public struct Upstream: Sendable, Hashable, CustomStringConvertible {
    /// The host, lower case: a name (`api.example.com`) or an address (`127.0.0.1`, `::1`); empty
    /// for an upstream known by ``name`` alone.
    public let host: String
    /// The port: the URL's, or its scheme's default (80 for `http` and `ws`, 443 for `https` and
    /// `wss`); `nil` when the URL names none and its scheme has no default.
    public let port: Int?
    /// The path prefix that tells this upstream from others on the same host (`/v1/search`), or
    /// `nil`.
    public let pathPrefix: String?
    /// The caller's name for the upstream (`payments`), or `nil` for one known by its address.
    public let name: String?

    /// Creates an upstream known by its address.
    /// - Parameters:
    ///   - host: The host; stored lower case, as host names compare without regard to case.
    ///   - port: The port, or `nil`.
    ///   - pathPrefix: The path prefix that tells it from others on the host, or `nil`.
    public init(host: String, port: Int?, pathPrefix: String? = nil) {
        // Most hosts are lower case already; lowercasing one that is costs a new string.
        self.host =
            host.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            ? host.lowercased() : host
        self.port = port
        self.pathPrefix = pathPrefix
        self.name = nil
    }

    /// Creates an upstream known by a name of the caller's, whatever addresses it has: requests
    /// keyed to the same name share one protection.
    /// - Parameter name: The name, as given (names are compared exactly).
    public init(name: String) {
        self.host = ""
        self.port = nil
        self.pathPrefix = nil
        self.name = name
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

    /// `api.example.com:443`, the host alone without a port, then the path prefix
    /// (`api.example.com:443/v1/search`); or the name.
    public var description: String {
        if let name { return name }
        return (port.map { "\(host):\($0)" } ?? host) + (pathPrefix ?? "")
    }
}
