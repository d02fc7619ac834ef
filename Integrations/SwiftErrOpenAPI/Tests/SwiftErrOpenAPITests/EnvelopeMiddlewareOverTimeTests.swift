// The OpenAPI middleware over (simulated) time: every scenario of PipelineScenario.defaults, the
// middleware configured as the root's DefaultsOverTimeTests configure a ResponseClient, with a `next`
// that sends to the simulated upstream; the same expectations, and the measured tables checked
// against the DocC article "Guarantees over time".

import Foundation
import HTTPTypes
import OpenAPIRuntime
import SwiftErr
import SwiftErrDefaultCatalog
import SwiftErrOpenAPI
import SwiftErrTesting
import Testing

@Suite("EnvelopeMiddleware over time: every default scenario in the simulation")
struct EnvelopeMiddlewareOverTimeTests {
    typealias Middleware = EnvelopeMiddleware<StudyGroupCode>

    /// The article whose tables the middleware must measure, from the repository's root.
    static let article = "Sources/SwiftErr/SwiftErr.docc/GuaranteesOverTime.md"
    /// The repository's root (this file is Integrations/SwiftErrOpenAPI/Tests/SwiftErrOpenAPITests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every scenario holds on the middleware, and it measures the article's tables")
    func scenarios() async throws {
        guard #available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
            return
        }
        let withoutSession = try await PipelineScenario.run(PipelineScenario.withoutSession) { simulation in
            var middleware = Middleware(
                timeouts: .init(attempt: .seconds(2), overall: .seconds(10)),
                protections: try simulation.protections())
            middleware.clock = simulation.pipelineClock
            return Self.send(through: middleware, to: simulation.upstream)
        }
        let withSession = try await PipelineScenario.run(PipelineScenario.withSession) { simulation in
            guard let tokens = simulation.tokens else { throw ScenarioWithoutTokens() }
            let session = AuthenticationSession(
                authenticator: tokens.authenticator, credential: tokens.initialToken, clock: simulation.clock)
            var middleware = Middleware(
                timeouts: .init(attempt: .seconds(2), overall: .seconds(10)),
                protections: try simulation.protections(), authentication: session)
            middleware.clock = simulation.pipelineClock
            return Self.send(through: middleware, to: simulation.upstream)
        }
        for result in withoutSession + withSession {
            #expect(result.failures.isEmpty, "\(result.scenario): \(result.failures)")
        }
        // The same tables as a ResponseClient's: the middleware runs the same pipeline.
        let document = Self.root.appendingPathComponent(Self.article)
        for (name, results) in [("protections", withoutSession), ("sessions", withSession)] {
            let table = PipelineScenario.table(results)
            let shown = try PipelineScenario.compareTable(name, table, inDocumentAt: document)
            #expect(shown == nil, "\(Self.article): the middleware measures another \(name) table:\n\(table)")
        }
    }

    struct ScenarioWithoutTokens: Error {}

    /// How a simulated request goes through the middleware, as a generated client calls it; `next`
    /// sends it to the simulated upstream. An answer passed on is judged by its status (the middleware
    /// throws for any code but the success code); a throw by `withModuleErrors`' typed error.
    @available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static func send(
        through middleware: Middleware, to upstream: SimulatedUpstream
    ) -> @Sendable (TransportRequest) async -> SimulatedOutcome {
        { request in
            let url = request.url
            let baseURL = URL(string: "\(url.scheme ?? "https")://\(url.host ?? "")")!
            let head = HTTPRequest(
                method: HTTPRequest.Method(request.method) ?? .get, scheme: url.scheme, authority: url.host,
                path: url.path)
            do throws(ModuleRespError<StudyGroupCode>) {
                let (response, _) = try await withModuleErrors(StudyGroupCode.self) {
                    try await middleware.intercept(head, body: nil, baseURL: baseURL, operationID: "getResource") {
                        request, _, baseURL in
                        try await Self.exchange(request, baseURL: baseURL, with: upstream)
                    }
                }
                return SimulatedOutcome(status: response.status.code)
            } catch {
                return SimulatedOutcome(error)
            }
        }
    }

    /// `next`: the request as the upstream gets it, and its answer as a transport hands it back.
    @available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static func exchange(
        _ request: HTTPRequest, baseURL: URL, with upstream: SimulatedUpstream
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var fields: [String: String] = [:]
        for field in request.headerFields { fields[field.name.rawName] = field.value }
        let sent = TransportRequest(
            url: URL(string: baseURL.absoluteString + (request.path ?? ""))!, method: request.method.rawValue,
            headerFields: fields)
        let answer = try await upstream.send(sent)
        var response = HTTPResponse(status: .init(code: answer.statusCode ?? 500))
        for (name, value) in answer.headerFields {
            if let name = HTTPField.Name(name) { response.headerFields[name] = value }
        }
        return (response, HTTPBody(Array(answer.body)))
    }
}
