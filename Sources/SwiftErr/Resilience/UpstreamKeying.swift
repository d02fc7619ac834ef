import Foundation

/// How ``UpstreamProtections`` tells upstreams apart: which requests share a protection.
///
/// By default (``host``) every request to one host and port shares its retry budget, circuit
/// breaker and throttle, so a failing path opens the circuit for the whole host. When one host
/// serves unrelated backends on different paths, key by ``pathPrefix(segments:)``; when several
/// hosts are one backend, or a request's address says nothing useful, name them with ``custom(_:)``.
///
/// <!-- listing: context=app -->
/// ```swift
/// let upstreams = try UpstreamProtections(keying: .pathPrefix(segments: 1))   // /search, /orders, …
/// let named = try UpstreamProtections(keying: .custom { request in
///     request.url.host?.hasSuffix(".payments.example.com") == true ? Upstream(name: "payments") : Upstream(url: request.url)
/// })
/// ```
public struct UpstreamKeying: Sendable {
    /// The upstream of a request, or `nil` to send it unprotected.
    public let upstream: @Sendable (TransportRequest) -> Upstream?

    /// A rule of your own: the upstream of each request, or `nil` to send it unprotected.
    /// - Parameter upstream: Returns the request's upstream.
    /// - Returns: The rule.
    public static func custom(_ upstream: @escaping @Sendable (TransportRequest) -> Upstream?) -> UpstreamKeying {
        UpstreamKeying(upstream: upstream)
    }

    /// The host and port of the request's URL (``Upstream/init(url:)``): the default.
    public static let host = UpstreamKeying { Upstream(url: $0.url) }

    /// The host and port, and the first `segments` segments of the path: with 1,
    /// `https://api.example.com/search/q?x` is `api.example.com:443/search`, and a path with fewer
    /// segments keeps the ones it has.
    /// - Parameter segments: The path segments that count, 0 or more (0 is ``host``).
    /// - Returns: The rule.
    public static func pathPrefix(segments: Int) -> UpstreamKeying {
        let count = max(0, segments)
        return UpstreamKeying { request in
            guard let base = Upstream(url: request.url) else { return nil }
            let parts = request.url.path.split(separator: "/", omittingEmptySubsequences: true).prefix(count)
            guard !parts.isEmpty else { return base }
            return Upstream(host: base.host, port: base.port, pathPrefix: "/" + parts.joined(separator: "/"))
        }
    }
}
