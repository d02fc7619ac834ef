import Foundation
import SwiftErr

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ResponseClient {
    /// Creates a client over a `URLSession`.
    ///
    /// <!-- listing: context=app -->
    /// ```swift
    /// let client = ResponseClient(
    ///     session: .shared,
    ///     decoder: ResponseDecoder(baseHandler: .reauthenticate { _ in session.expire() }),
    ///     timeouts: .init(attempt: .seconds(10), overall: .seconds(30)))
    /// let item = try await client.send(URLRequest(url: url), returning: ClassItem.self, module: StudyGroupCode.self)
    /// ```
    /// - Parameters:
    ///   - session: The session (`URLSession.shared` by default).
    ///   - decoder: Status, envelope, base handler and payload decoding.
    ///   - policy: The retry policy (`RetryPolicy.default`).
    ///   - timeouts: Time limits (none by default).
    ///   - protections: The protections of the upstreams, one per upstream as their `UpstreamKeying`
    ///     tells them apart (none by default).
    ///   - observer: Told once about every request when it has ended (none by default).
    public init(
        session: URLSession = .shared, decoder: ResponseDecoder = ResponseDecoder(), policy: RetryPolicy = .default,
        timeouts: Timeouts = .none, protections: UpstreamProtections? = nil, observer: (any RequestObserver)? = nil
    ) {
        self.init(
            transport: URLSessionTransport(session: session), decoder: decoder, policy: policy, timeouts: timeouts,
            protections: protections, observer: observer)
    }

    /// Creates a client over a `URLSession` whose requests carry the credential of an
    /// `AuthenticationSession`, kept alive by it: an answer that asks for re-authentication is sent
    /// again once, with the credential of the one refresh every request in flight waits for.
    ///
    /// <!-- listing: context=app,tokens -->
    /// ```swift
    /// let tokens = AuthenticationSession(authenticator: TokenAuthenticator(), credential: savedToken)
    /// let client = ResponseClient(session: .shared, decoder: decoder, authentication: tokens)
    /// ```
    /// - Parameters:
    ///   - session: The session (`URLSession.shared` by default).
    ///   - decoder: Status, envelope, base handler and payload decoding.
    ///   - policy: The retry policy (`RetryPolicy.default`).
    ///   - timeouts: Time limits (none by default); a request waiting for a refresh still ends at
    ///     its deadline.
    ///   - protections: The protections of the upstreams, one per upstream as their `UpstreamKeying`
    ///     tells them apart (none by default).
    ///   - observer: Told once about every request when it has ended (none by default).
    ///   - authentication: The credential's session; clients that share it share its refreshes.
    public init<A: Authenticator>(
        session: URLSession = .shared, decoder: ResponseDecoder = ResponseDecoder(), policy: RetryPolicy = .default,
        timeouts: Timeouts = .none, protections: UpstreamProtections? = nil, observer: (any RequestObserver)? = nil,
        authentication: AuthenticationSession<A>
    ) {
        self.init(
            transport: URLSessionTransport(session: session), decoder: decoder, policy: policy, timeouts: timeouts,
            protections: protections, observer: observer, authentication: authentication)
    }

    /// Sends a `URLRequest` and returns its payload: ``SwiftErr/ResponseClient/send(_:returning:module:repeatability:decide:)``
    /// for the ``SwiftErr/TransportRequest`` it describes.
    /// - Parameters:
    ///   - request: The request.
    ///   - model: The payload type (`Optional`, `NoData` or any `Decodable`).
    ///   - module: The module the request belongs to.
    ///   - repeatability: Whether the request may be sent more than once (by its method by default).
    ///   - decide: Asked before each retry ("try again?"); `nil` retries without asking.
    /// - Returns: The payload of the first successful response.
    /// - Throws: What the `TransportRequest` form throws; `ModuleRespError.transportFailed(underlying:)`
    ///   with `URLError.badURL` for a request without a URL, or `URLError.unsupportedURL` for one
    ///   with an `httpBodyStream` (nothing is sent).
    public func send<Model: Decodable, Code: ModuleCode>(
        _ request: URLRequest, returning model: Model.Type = Model.self, module: Code.Type = Code.self,
        repeatability: Repeatability = .byMethod,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil
    ) async throws(ModuleRespError<Code>) -> Model {
        let converted: TransportRequest
        do {
            converted = try TransportRequest(request)
        } catch {
            throw .transportFailed(underlying: error)
        }
        return try await send(
            converted, returning: Model.self, module: Code.self, repeatability: repeatability, decide: decide)
    }

    /// Sends a `URLRequest` and returns its outcome as a `Result` (see
    /// ``send(_:returning:module:repeatability:decide:)``).
    /// - Parameters:
    ///   - request: The request.
    ///   - model: The payload type.
    ///   - module: The module the request belongs to.
    ///   - repeatability: Whether the request may be sent more than once (by its method by default).
    ///   - decide: Asked before each retry; `nil` retries without asking.
    /// - Returns: The payload, or the one `ModuleRespError` that ended the request.
    public func result<Model: Decodable, Code: ModuleCode>(
        _ request: URLRequest, returning model: Model.Type = Model.self, module: Code.Type = Code.self,
        repeatability: Repeatability = .byMethod,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil
    ) async -> Result<Model, ModuleRespError<Code>> {
        do {
            return .success(
                try await send(
                    request, returning: Model.self, module: Code.self, repeatability: repeatability, decide: decide))
        } catch {
            return .failure(error)
        }
    }

    /// Sends a `URLRequest` in a new task and calls `completionHandler` exactly once with its
    /// outcome; the model and module are read from the handler's type.
    ///
    /// <!-- listing: context=app -->
    /// ```swift
    /// func queryDemo(with params: [String: String],
    ///                completionHandler: @escaping @Sendable (Result<ClassItem, ModuleRespError<StudyGroupCode>>) -> Void) {
    ///     let url = baseURL.appending(path: "class/query").appending(queryItems: params.map(URLQueryItem.init))
    ///     client.send(URLRequest(url: url), completionHandler: completionHandler)
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - repeatability: Whether the request may be sent more than once (by its method by default).
    ///   - decide: Asked before each retry; `nil` retries without asking.
    ///   - completionHandler: Called once, from the task, with the payload or the one
    ///     `ModuleRespError` that ended the request. It runs on no particular thread: hop to the
    ///     main actor for UI work.
    /// - Returns: The task, to cancel the request.
    @discardableResult
    public func send<Model: Decodable & Sendable, Code: ModuleCode>(
        _ request: URLRequest, repeatability: Repeatability = .byMethod,
        decide: (@Sendable (RetryContext<Code>) async -> RetryDecision)? = nil,
        completionHandler: @escaping @Sendable (Result<Model, ModuleRespError<Code>>) -> Void
    ) -> Task<Void, Never> {
        Task {
            let outcome: Result<Model, ModuleRespError<Code>> = await result(
                request, repeatability: repeatability, decide: decide)
            completionHandler(outcome)
        }
    }
}
