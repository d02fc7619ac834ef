import Foundation
import Testing

/// The DocC articles a new user reads first exist, are linked from the landing page, and show the
/// calls they are about. (README.md's listings and journeys are checked by scripts/docs.)
@Suite("Documentation: the DocC articles a new user reads first")
struct DocumentationTests {
    static func text(_ path: String) throws -> String {
        String(decoding: try RepositoryFiles.bytes(path), as: UTF8.self)
    }

    @Test("GettingStarted shows how to add the package and the SwiftErr product")
    func addingTheDependency() throws {
        let text = try Self.text("Sources/SwiftErr/SwiftErr.docc/GettingStarted.md")
        #expect(text.contains(".package(url: "))
        #expect(text.contains(#".product(name: "SwiftErr", package: "SwiftErr")"#))
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

    @Test("the landing page links Keeping a session alive, which shows the completion-handler form")
    func sessionsDocumented() throws {
        let landing = try Self.text("Sources/SwiftErr/SwiftErr.docc/SwiftErr.md")
        #expect(landing.contains("<doc:KeepingASessionAlive>"))
        let article = try Self.text("Sources/SwiftErr/SwiftErr.docc/KeepingASessionAlive.md")
        #expect(article.hasPrefix("# Keeping a session alive\n"))
        #expect(article.contains("completionHandler: completionHandler"))
    }

    @Test("the landing page links Protecting an upstream, whose ResponseClient section shows the client's protections")
    func protectionsDocumented() throws {
        let article = try Self.text("Sources/SwiftErr/SwiftErr.docc/ProtectingAnUpstream.md")
        let heading = try #require(article.range(of: "## In a ResponseClient\n"))
        let section = article[heading.upperBound...]
        #expect(section.contains("protections: upstreams"))
        #expect(!section.contains("to be filled"))
        let landing = try Self.text("Sources/SwiftErr/SwiftErr.docc/SwiftErr.md")
        #expect(landing.contains("<doc:ProtectingAnUpstream>"))
    }
}
