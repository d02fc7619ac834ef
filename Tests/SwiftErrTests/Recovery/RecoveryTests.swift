import Foundation
import SwiftErrTesting
import Testing

@testable import SwiftErr

/// A `LocalizedError` with fixed English texts, so the tests do not depend on the process-wide
/// ``MessageLanguage`` other suites change.
struct UploadFailure: LocalizedError {
    var errorDescription: String? { "Upload failed" }
    var failureReason: String? { "The server is unavailable." }
    var recoverySuggestion: String? { "Try again later." }
}

/// Counts how often recovery actions ran.
final class ActionCounter: Sendable {
    private let counts = Locked<[String: Int]>([:])
    func hit(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    subscript(_ name: String) -> Int { counts.withLock { $0[name, default: 0] } }
}

@Suite("Recovery options, presentations and presenters")
struct RecoveryTests {
    @Test("option factories: try again and custom recover, cancel and OK do not")
    func optionFactories() {
        let counter = ActionCounter()
        let tryAgain = RecoveryOption.tryAgain { counter.hit("retry") }
        let cancel = RecoveryOption.cancel { counter.hit("cancel") }
        let freeSpace = RecoveryOption.custom(id: "freeSpace", title: LocalizedText(english: "Free Up Space")) {
            counter.hit("free")
        }
        #expect(tryAgain.perform() && freeSpace.perform())
        #expect(!cancel.perform() && !RecoveryOption.ok().perform())
        #expect(counter["retry"] == 1 && counter["cancel"] == 1 && counter["free"] == 1)
        #expect(
            [tryAgain.role, cancel.role, freeSpace.role, RecoveryOption.ok().role] == [
                .tryAgain, .cancel, .custom, .acknowledge,
            ])
        #expect([tryAgain.id, cancel.id, freeSpace.id] == ["tryAgain", "cancel", "freeSpace"])
        #expect(tryAgain.title.text(in: .simplifiedChinese) == "重试")
    }

    @Test("RecoverableError: the try-again set is Cancel then Try Again, and indexes run the right option")
    func tryAgainSet() {
        let counter = ActionCounter()
        let failure = RecoverableFailure.tryAgain(UploadFailure()) { counter.hit("retry") }
        #expect(failure.recoveryOptions(in: .english) == ["Cancel", "Try Again"])
        #expect(failure.recoveryOptions(in: .simplifiedChinese) == ["取消", "重试"])
        let current = failure.recoveryOptions
        #expect(current == ["Cancel", "Try Again"] || current == ["取消", "重试"])
        #expect(failure.attemptRecovery(optionIndex: 1))
        #expect(!failure.attemptRecovery(optionIndex: 0))
        #expect(counter["retry"] == 1)
    }

    @Test(
        "an out-of-range option index is answered with false and runs nothing",
        arguments: [-1, 2, 99, Int.min, Int.max])
    func outOfRange(index: Int) {
        let counter = ActionCounter()
        let failure = RecoverableFailure.tryAgain(UploadFailure()) { counter.hit("retry") }
        #expect(!failure.attemptRecovery(optionIndex: index))
        #expect(failure.option(at: index) == nil)
        #expect(counter["retry"] == 0)
        var result: Bool?
        failure.attemptRecovery(optionIndex: index) { result = $0 }  // Foundation's callback form
        #expect(result == false)
    }

    @Test("the cancellable set puts Cancel before the custom options (free space, buy more)")
    func cancellableSet() {
        let counter = ActionCounter()
        let failure = RecoverableFailure.cancellable(
            UploadFailure(),
            options: [
                .custom(id: "freeSpace", title: LocalizedText(english: "Free Up Space", simplifiedChinese: "清理空间")) {
                    counter.hit("free")
                },
                .custom(id: "buyMore", title: LocalizedText(english: "Buy More Storage")) { counter.hit("buy") },
            ])
        #expect(failure.options.map(\.id) == ["cancel", "freeSpace", "buyMore"])
        #expect(failure.recoveryOptions(in: .simplifiedChinese) == ["取消", "清理空间", "Buy More Storage"])
        #expect(failure.attemptRecovery(optionIndex: 2))
        #expect(counter["buy"] == 1 && counter["free"] == 0)
    }

    @Test("the wrapped error's LocalizedError fields show through")
    func forwardsLocalizedFields() {
        let failure = RecoverableFailure.tryAgain(UploadFailure()) {}
        #expect(failure.errorDescription == "Upload failed")
        #expect(failure.failureReason == "The server is unavailable.")
        #expect(failure.recoverySuggestion == "Try again later.")
        #expect(RecoverableFailure(OpaqueFailure(tag: "x"), options: []).failureReason == nil)
    }

    @Test("a presentation of a recoverable failure: title, joined message, one action per option")
    func presentationOfRecoverable() {
        let counter = ActionCounter()
        let presentation = ErrorPresentation(
            error: RecoverableFailure.tryAgain(UploadFailure()) { counter.hit("retry") },
            language: .english)
        #expect(presentation.title == "Upload failed")
        #expect(presentation.message == "The server is unavailable. Try again later.")
        #expect(presentation.actions.map(\.title) == ["Cancel", "Try Again"])
        #expect(presentation.actions.map(\.role) == [.cancel, .tryAgain])
        #expect(presentation.perform(actionAt: 1) == true)
        #expect(presentation.perform(actionAt: 5) == nil)
        #expect(counter["retry"] == 1)
    }

    @Test("a plain LocalizedError gets OK; an error without descriptions gets the default texts")
    func presentationDefaults() {
        let localized = ErrorPresentation(error: UploadFailure(), language: .english)
        #expect(localized.title == "Upload failed")
        #expect(localized.actions.map(\.title) == ["OK"])
        #expect(localized.actions.map(\.role) == [.acknowledge])
        #expect(localized.perform(actionAt: 0) == false)
        let plain = ErrorPresentation(error: OpaqueFailure(tag: "?"), language: .simplifiedChinese)
        #expect(plain.title == "错误")
        #expect(plain.message == "出了点问题,请重试。")
        #expect(plain.actions.map(\.title) == ["好"])
    }

    @Test("a foreign RecoverableError's options become actions that call attemptRecovery")
    func foreignRecoverable() {
        struct DiskFull: RecoverableError {
            let counter: ActionCounter
            var recoveryOptions: [String] { ["Ignore", "Open Settings"] }
            func attemptRecovery(optionIndex: Int) -> Bool {
                counter.hit("option\(optionIndex)")
                return optionIndex == 1
            }
        }
        let counter = ActionCounter()
        let presentation = ErrorPresentation(error: DiskFull(counter: counter), language: .english)
        #expect(presentation.actions.map(\.title) == ["Ignore", "Open Settings"])
        #expect(presentation.perform(actionAt: 1) == true)
        #expect(counter["option1"] == 1)
    }

    @Test("the recording presenter records presentations and answers its script; the choice is performed")
    func recordingPresenter() async {
        let counter = ActionCounter()
        let presenter = RecordingErrorPresenter(answers: [1, 7])
        let failure = RecoverableFailure.tryAgain(UploadFailure()) { counter.hit("retry") }
        #expect(await presenter.present(failure) == .chose(actionIndex: 1, recovered: true))
        #expect(await presenter.present(failure) == .invalidChoice(7))
        #expect(await presenter.present(failure) == .dismissed)
        #expect(counter["retry"] == 1)
        #expect(presenter.presentations.count == 3)
        #expect(presenter.presentations.first?.title == "Upload failed")
    }

    @Test("the terminal presenter writes title, message and numbered actions, and reads a choice")
    func terminalPresenter() async {
        let lines = Locked<[String?]>(["x", "9", "2"])
        let presenter = TerminalErrorPresenter(
            output: "", input: { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } })
        let presentation = ErrorPresentation(error: RecoverableFailure.tryAgain(UploadFailure()) {}, language: .english)
        #expect(await presenter.present(presentation) == 1)
        #expect(
            presenter.written == """
                error: Upload failed
                  The server is unavailable. Try again later.
                  [1] Cancel
                  [2] Try Again
                choose 1-2 (empty to dismiss): not a choice: 'x' (expected a number from 1 to 2)
                choose 1-2 (empty to dismiss): not a choice: '9' (expected a number from 1 to 2)
                choose 1-2 (empty to dismiss): 
                """)
    }

    @Test("the terminal presenter without input only prints, and gives up after too many bad answers")
    func terminalPresenterLimits() async {
        let printer = TerminalErrorPresenter(output: "")
        #expect(await printer.present(ErrorPresentation(error: UploadFailure(), language: .english)) == nil)
        #expect(printer.written == "error: Upload failed\n  The server is unavailable. Try again later.\n")
        let stubborn = TerminalErrorPresenter(output: "", input: { "nope" }, maxPrompts: 2)
        #expect(await stubborn.present(ErrorPresentation(error: UploadFailure(), language: .english)) == nil)
        #expect(stubborn.written.hasSuffix("no valid choice after 2 prompts; dismissed\n"))
        let ended = TerminalErrorPresenter(output: "", input: { nil })
        #expect(await ended.present(ErrorPresentation(error: UploadFailure(), language: .english)) == nil)
    }

    @Test("the file-handle stream writes UTF-8 to a pipe")
    func fileHandleStream() throws {
        let pipe = Pipe()
        var stream = FileHandleOutputStream(pipe.fileHandleForWriting)
        stream.write("错误: x\n")
        try pipe.fileHandleForWriting.close()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(String(decoding: data, as: UTF8.self) == "错误: x\n")
        #expect(stream.failedWrites == 0)
        stream.write("after close")
        #expect(stream.failedWrites == 1)
    }
}
