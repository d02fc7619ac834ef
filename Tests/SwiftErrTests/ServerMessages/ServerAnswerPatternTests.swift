import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

/// The code users wrote against `ModuleRespError` before its server-code cases carried a
/// ``ServerAnswer``, compiled as it was: this file compiling is the proof of source compatibility,
/// and each test checks the pattern still means what it meant, with and without a message.
@Suite("ServerAnswer: the patterns and comparisons written against bare codes")
struct ServerAnswerPatternTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    static let withMessage = Failure.module(.wrongTeamCode, serverMessage: "Wrong code, try again.")

    func throwTyped(_ error: Failure) throws(Failure) { throw error }
    func throwUntyped(_ error: Failure) throws { throw error }

    @Test("catch .module(.wrongTeamCode) with typed throws, with and without a message")
    func catchTyped() {
        for error in [Failure.module(.wrongTeamCode), Self.withMessage] {
            var caught = false
            do {
                try throwTyped(error)
            } catch .module(.wrongTeamCode) {
                caught = true
            } catch {
                Issue.record("expected .module(.wrongTeamCode), got \(error)")
            }
            #expect(caught)
        }
    }

    @Test("catch ModuleRespError<StudyGroupCode>.module(.wrongTeamCode) from an untyped throw")
    func catchUntyped() {
        var caught = false
        do {
            try throwUntyped(Self.withMessage)
        } catch ModuleRespError<StudyGroupCode>.module(.wrongTeamCode) {
            caught = true
        } catch {
            Issue.record("expected .module(.wrongTeamCode), got \(error)")
        }
        #expect(caught)
    }

    @Test("switch, if case, guard case and Result patterns against bare codes")
    func switching() {
        func kind(_ error: Failure) -> String {
            switch error {
            case .base(.tokenExpire): return "token"
            case .base: return "base"
            case .module(.wrongTeamCode), .module(.classNotFound): return "warning"
            case .module(let code) where code.isUnrecognised: return "unrecognised \(code.code)"
            case .module(let code): return "module \(code.name)"
            case .unexpectedCode(11090): return "11090"
            case .unexpectedCode(let raw): return "unexpected \(raw)"
            default: return "other"
            }
        }
        #expect(kind(.base(.tokenExpire, serverMessage: "expired")) == "token")
        #expect(kind(.base(.overVerifyCode)) == "base")
        #expect(kind(Self.withMessage) == "warning")
        #expect(kind(.module(.other(11_219_999), serverMessage: "full")) == "unrecognised 11219999")
        #expect(kind(.module(.joinTeamMax)) == "module joinTeamMax")
        #expect(kind(.unexpectedCode(11090, serverMessage: "x")) == "11090")
        #expect(kind(.unexpectedCode(5)) == "unexpected 5")

        let error = Failure.base(.tokenExpire, serverMessage: "expired")
        if case .base(.tokenExpire) = error {} else { Issue.record("if case .base(.tokenExpire) did not match") }
        let result: Result<ClassItemModel, Failure> = .failure(.unexpectedCode(11090, serverMessage: "gone"))
        guard case .failure(.unexpectedCode(11090)) = result else {
            Issue.record("guard case .failure(.unexpectedCode(11090)) did not match")
            return
        }
    }

    @Test("a bound answer reads like the code: properties, ==, interpolation")
    func binding() {
        guard case .module(let code) = Self.withMessage else {
            Issue.record("not a module case")
            return
        }
        #expect(code == .wrongTeamCode && StudyGroupCode.wrongTeamCode == code)
        #expect(code != .classNotFound)
        #expect(code.name == "wrongTeamCode" && code.code == 11_210_005 && !code.isUnrecognised)
        #expect(code.value == .wrongTeamCode)
        #expect(code.serverMessage == "Wrong code, try again.")
        #expect("\(code)" == "\(StudyGroupCode.wrongTeamCode)")
        #expect(code.debugDescription.contains("Wrong code, try again."))
        if case .base(let base) = Failure.base(.tokenExpire) { #expect(base.rawValue == 11001) }
        if case .unexpectedCode(let raw) = Failure.unexpectedCode(424_242) {
            #expect(raw == 424_242 && "\(raw)" == "424242")
        }
        // The module enum's own cases are matched through the bare code.
        guard case .other(let raw)? = Failure.module(.other(11_219_999)).moduleCode else {
            Issue.record("moduleCode lost the unrecognised case")
            return
        }
        #expect(raw == 11_219_999)
        guard case .module(.other(let number))? = Failure.module(.other(11_219_999)).outcome else {
            Issue.record("outcome lost the unrecognised case")
            return
        }
        #expect(number == 11_219_999)
    }

    @Test("equality and hashing ignore the message")
    func equality() {
        let plain = ServerAnswer(StudyGroupCode.wrongTeamCode)
        let worded = ServerAnswer(StudyGroupCode.wrongTeamCode, serverMessage: "Wrong code.")
        let reworded = ServerAnswer(StudyGroupCode.wrongTeamCode, serverMessage: "Falscher Code.")
        #expect(plain == worded && worded == reworded)
        #expect(plain.hashValue == worded.hashValue && worded.hashValue == reworded.hashValue)
        #expect(Set([plain, worded, reworded]).count == 1)
        #expect(worded != ServerAnswer(StudyGroupCode.classNotFound, serverMessage: "Wrong code."))
        #expect(Self.withMessage.moduleCode == Failure.module(.wrongTeamCode).moduleCode)
        #expect(Self.withMessage.outcome == Failure.module(.wrongTeamCode).outcome)
        #expect(Failure.base(.tokenExpire, serverMessage: "a").baseCode == .tokenExpire)
    }

    @Test("constructing: a bare code, a code and a message (cleaned), a wrapped answer")
    func constructing() {
        let bare = Failure.module(.wrongTeamCode)
        #expect(bare.serverMessage == nil)
        let wrapped = Failure.module(ServerAnswer(.wrongTeamCode, serverMessage: "\u{202E}gnorw\u{0000}"))
        #expect(wrapped.serverMessage == "gnorw")
        #expect(Failure.unexpectedCode(5, serverMessage: "   ").serverMessage == nil)
        #expect(Failure(.module(.classNotFound), serverMessage: "no class")?.serverMessage == "no class")
        #expect(Failure(.success, serverMessage: "ok") == nil)
        #expect(Failure.cancelled.serverMessage == nil)
    }
}
