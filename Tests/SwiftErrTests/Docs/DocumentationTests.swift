import Foundation
import Testing

/// What a new user reads first: how to add the dependency, and the one-call request.
@Suite("Documentation: adding the dependency and making requests")
struct DocumentationTests {
    static func text(_ path: String) throws -> String {
        String(decoding: try RepositoryFiles.bytes(path), as: UTF8.self)
    }

    @Test(
        "the README and GettingStarted show how to add the package and the SwiftErr product",
        arguments: ["README.md", "Sources/SwiftErr/SwiftErr.docc/GettingStarted.md"])
    func addingTheDependency(path: String) throws {
        let text = try Self.text(path)
        #expect(text.contains(".package(url: "), "\(path)")
        #expect(text.contains(#".product(name: "SwiftErr", package: "SwiftErr")"#), "\(path)")
    }

    @Test("the README shows the one-call request, and the completion-handler queryDemo in three lines")
    func oneCallRequest() throws {
        let text = try Self.text("README.md")
        #expect(text.contains("ResponseClient("))
        #expect(text.contains("try await client.send("))
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("func queryDemo(") })
        let bodyStart = try #require(lines[start...].firstIndex { $0.hasSuffix(") {") })
        let bodyEnd = try #require(lines[bodyStart...].firstIndex { $0 == "}" })
        #expect(bodyEnd - bodyStart - 1 <= 3, "queryDemo's body is \(bodyEnd - bodyStart - 1) lines")
        #expect(lines[bodyStart..<bodyEnd].contains { $0.contains("completionHandler: completionHandler") })
    }

    @Test("the DocC landing page links the Making requests article, which exists")
    func makingRequestsArticle() throws {
        let landing = try Self.text("Sources/SwiftErr/SwiftErr.docc/SwiftErr.md")
        #expect(landing.contains("<doc:MakingRequests>"))
        let article = try Self.text("Sources/SwiftErr/SwiftErr.docc/MakingRequests.md")
        #expect(article.hasPrefix("# Making requests\n"))
    }

    @Test("the DocC landing page links Bringing your own catalog, which exists and shows the plugin")
    func ownCatalogArticle() throws {
        let landing = try Self.text("Sources/SwiftErr/SwiftErr.docc/SwiftErr.md")
        #expect(landing.contains("<doc:BringingYourOwnCatalog>"))
        let article = try Self.text("Sources/SwiftErr/SwiftErr.docc/BringingYourOwnCatalog.md")
        #expect(article.hasPrefix("# Bringing your own catalog\n"))
        #expect(article.contains(#".plugin(name: "SwiftErrCatalogPlugin", package: "SwiftErr")"#))
    }

    @Test("the README's first steps start from the app's catalog and name no type of the built-in catalog")
    func firstStepsFromOwnCatalog() throws {
        let text = try Self.text("README.md")
        let start = try #require(text.range(of: "## Your codes, from your catalog\n"))
        // The steps, up to the table of products (which lists SwiftErrDefaultCatalog too).
        let end = try #require(text.range(of: "\n| product |", range: start.upperBound..<text.endIndex))
        let firstSteps = text[start.upperBound..<end.lowerBound]
        #expect(firstSteps.contains(#".plugin(name: "SwiftErrCatalogPlugin", package: "SwiftErr")"#))
        #expect(firstSteps.contains("catalog.json"))
        #expect(firstSteps.contains("ShopCatalog.install()"))
        for builtIn in ["StudyGroupCode", "tokenExpire", "builtIn", "11210005"] {
            #expect(!firstSteps.contains(builtIn), "the first steps name \(builtIn)")
        }
    }

    @Test("the landing page links Keeping a session alive; the README has the section and its completion-handler form")
    func sessionsDocumented() throws {
        let landing = try Self.text("Sources/SwiftErr/SwiftErr.docc/SwiftErr.md")
        #expect(landing.contains("<doc:KeepingASessionAlive>"))
        let article = try Self.text("Sources/SwiftErr/SwiftErr.docc/KeepingASessionAlive.md")
        #expect(article.hasPrefix("# Keeping a session alive\n"))
        #expect(article.contains("completionHandler: completionHandler"))
        let readme = try Self.text("README.md")
        #expect(readme.contains("## Keeping a session alive\n"))
        #expect(readme.contains("authentication: session"))
    }

    @Test(
        "the README's Protecting upstreams section and the article's ResponseClient section show the client's protections"
    )
    func protectionsDocumented() throws {
        let readme = try Self.text("README.md")
        #expect(readme.contains("## Protecting upstreams\n"))
        #expect(readme.contains("protections: upstreams"))
        #expect(readme.contains("catch .refused("))
        let article = try Self.text("Sources/SwiftErr/SwiftErr.docc/ProtectingAnUpstream.md")
        let section = try #require(article.components(separatedBy: "## In a ResponseClient\n").last)
        #expect(section.contains("protections: upstreams"))
        #expect(!section.contains("to be filled"))
        let landing = try Self.text("Sources/SwiftErr/SwiftErr.docc/SwiftErr.md")
        #expect(landing.contains("<doc:ProtectingAnUpstream>"))
    }

    @Test("the README still starts with its two commands")
    func firstTwoCommands() throws {
        let lines = try Self.text("README.md").components(separatedBy: "\n")
        #expect(lines.count > 5)
        #expect(lines[3].hasPrefix("swift run -c release errcat classify Examples/responses.jsonl"))
        #expect(lines[4].hasPrefix("make check"))
    }
}
