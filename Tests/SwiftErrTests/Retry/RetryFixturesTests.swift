import Foundation
import SwiftErrDefaultCatalog
import Testing

@testable import SwiftErr

/// A module whose codes carry the flags the retry policy reads (the default catalog flags none
/// of its codes retryable or fatal). Classified through its own catalog: the standard base tier
/// plus this module.
enum SyncCode: ModuleCode {
    case serverBusy, accountFrozen, quotaExceeded, busyButFatal
    case other(Int64)

    static var moduleName: String { "sync" }
    static var moduleTitle: LocalizedText { LocalizedText(english: "Sync", simplifiedChinese: "同步") }
    static var codeRanges: [ClosedRange<Int64>] { [11900000...11909999] }
    static var listedCases: [Self] { [.serverBusy, .accountFrozen, .quotaExceeded, .busyButFatal] }
    static func unrecognised(_ code: Int64) -> Self { .other(code) }
    static let classifier = ModuleClassifier<Self>(
        building: Catalog.builtIn.definition.withoutModules.adding(SyncCode.definition))

    var flags: CodeFlags {
        switch self {
        case .serverBusy: return [.retryable]
        case .accountFrozen: return [.fatal, .showUser]
        case .quotaExceeded: return [.showUser]
        case .busyButFatal: return [.retryable, .fatal]
        case .other: return []
        }
    }

    var message: LocalizedText {
        switch self {
        case .serverBusy: return LocalizedText(english: "The server is busy.")
        case .accountFrozen: return LocalizedText(english: "The account is frozen.")
        case .quotaExceeded: return LocalizedText(english: "The quota is used up.")
        case .busyButFatal: return LocalizedText(english: "Busy, and fatal.")
        case .other: return SyncCode.unrecognisedMessage
        }
    }
    var code: Int64 {
        switch self {
        case .serverBusy: return 11900001
        case .accountFrozen: return 11900002
        case .quotaExceeded: return 11900003
        case .busyButFatal: return 11900004
        case .other(let code): return code
        }
    }
}

/// An error type no built-in adapter knows, comparable so tests can check it is kept.
struct OpaqueFailure: Error, Equatable {
    let tag: String
}

/// A scripted operation: each attempt throws the next scripted error, or returns the attempt
/// number once the script is used up. Counts attempts. Sendable, so tests can read the count
/// while the retrier runs in another task.
final class ScriptedOperation: Sendable {
    private let state: Locked<(attempts: Int, script: [any Error])>

    init(_ script: [any Error]) {
        state = Locked((0, script))
    }

    var attempts: Int { state.withLock { $0.attempts } }

    func callAsFunction() throws -> Int {
        try state.withLock { state in
            state.attempts += 1
            if state.script.isEmpty { return state.attempts }
            throw state.script.removeFirst()
        }
    }
}

/// Records the contexts a decision hook was asked about and answers with a script.
final class ScriptedDecider: Sendable {
    private let state: Locked<(asked: [Int], answers: [RetryDecision])>

    init(_ answers: [RetryDecision]) {
        state = Locked(([], answers))
    }

    /// The failed attempt numbers the hook was asked about.
    var askedAttempts: [Int] { state.withLock { $0.asked } }

    func decide(_ context: RetryContext<SyncCode>) -> RetryDecision {
        state.withLock { state in
            state.asked.append(context.attempt)
            return state.answers.isEmpty ? .retry : state.answers.removeFirst()
        }
    }
}

@Suite("Retry fixtures")
struct RetryFixturesTests {
    @Test("the fixture module's catalog assembles and carries the flags the policy reads")
    func fixtureCatalogHasFlags() throws {
        #expect(SyncCode.classifier.failure == nil)
        #expect(ModuleRespError<SyncCode>.module(.serverBusy).flags == [.retryable])
        #expect(ModuleRespError<SyncCode>.module(.accountFrozen).flags.contains(.fatal))
        #expect(ModuleRespError<SyncCode>.module(.quotaExceeded).flags == [.showUser])
    }

    @Test("the scripted operation throws its script in order, then counts")
    func scriptedOperationRunsItsScript() throws {
        let operation = ScriptedOperation([OpaqueFailure(tag: "a")])
        #expect(throws: OpaqueFailure(tag: "a")) { try operation() }
        #expect(try operation() == 2)
        #expect(operation.attempts == 2)
    }
}
