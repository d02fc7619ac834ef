import Foundation
import SwiftErrDefaultCatalog
import SwiftErrTesting
import SwiftErrURLSession
import Testing

/// The server's message from the wire to what a person sees: a real HTTP exchange with a
/// ``LoopbackHTTPServer`` through ``ResponseClient``, the decoder alone, the descriptions, and the
/// process-wide switch that turns server text off.
///
/// One serialized suite holds every test whose result depends on
/// ``ServerMessage/isShownInDescriptions``, a process-wide setting that one of them changes, so
/// that no test reads it while another has it off.
@Suite("The server's message: kept, cleaned and shown for codes the catalog does not list", .serialized)
struct ServerMessageTests {
    typealias Failure = ModuleRespError<StudyGroupCode>

    /// A code in the study-group module's range that its catalog does not list.
    static let unlisted = #"{"ret":11219999,"msg":"Your team is full.","data":null}"#

    /// The failure of one GET of `body` served by a loopback server, through a ResponseClient.
    static func requestFailure(_ body: String) async throws -> Failure? {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/class", [.json(body)])
        let client = ResponseClient(session: URLSession(configuration: .ephemeral), policy: .never)
        let result = await client.result(
            URLRequest(url: server.url("/class")), returning: ClassItemModel.self, module: StudyGroupCode.self)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return nil
        }
        #expect(server.requests("/class").count == 1)
        return error
    }

    @Test("over HTTP: an unlisted code keeps the server's message and its description uses it")
    func overHTTP() async throws {
        let error = try #require(try await Self.requestFailure(Self.unlisted))
        #expect(error.moduleCode == .other(11_219_999))
        #expect(error.serverMessage == "Your team is full.")
        #expect(error.errorDescription(in: .english) == "Your team is full. (code 11219999)")
        #expect(error.errorDescription(in: .simplifiedChinese) == "Your team is full.(错误码 11219999)")
        #expect(error.description == #"studyGroup: unrecognised code 11219999: server's message "Your team is full.""#)
        #expect(ErrorPresentation(error: error, language: .english).title == "Your team is full. (code 11219999)")
        #expect((error as NSError).localizedDescription.contains("Your team is full."))
        #expect((error as NSError).userInfo[ModuleRespErrorKeys.serverMessage] as? String == "Your team is full.")
    }

    @Test("over HTTP: a listed code keeps the message but shows the catalog's text")
    func listedCodeOverHTTP() async throws {
        let error = try #require(
            try await Self.requestFailure(#"{"ret":11210005,"msg":"team code mismatch (server wording)"}"#))
        #expect(error.moduleCode == .wrongTeamCode)
        #expect(error.serverMessage == "team code mismatch (server wording)")
        #expect(error.errorDescription(in: .english) == Failure.module(.wrongTeamCode).errorDescription(in: .english))
        #expect(!error.errorDescription(in: .english).contains("server wording"))
    }

    @Test("over HTTP: a hostile 1 MB message arrives cleaned, bounded and in the description")
    func hostileOverHTTP() async throws {
        let hostile = "\u{202E}evil\\u0007\\n" + String(repeating: "é", count: 500_000)
        let error = try #require(try await Self.requestFailure(#"{"ret":11219999,"msg":""# + hostile + #""}"#))
        let message = try #require(error.serverMessage)
        #expect(message.hasPrefix("evil "))
        #expect(message.hasSuffix("…"))
        #expect(message.utf8.count <= ServerMessage.maximumUTF8Count)
        #expect(!message.unicodeScalars.contains { $0 == "\u{202E}" || $0.value < 0x20 })
        #expect(error.errorDescription(in: .english) == "\(message) (code 11219999)")
    }

    @Test("the decoder: every server-code case keeps the message, under the configured key")
    func decoderPath() throws {
        let decoder = ResponseDecoder(keys: .codeMessage)
        func failure(_ json: String) -> Failure? {
            if case .failure(let error) = decoder.result(
                NoData.self, module: StudyGroupCode.self, from: Data(json.utf8))
            {
                return error
            }
            return nil
        }
        let base = try #require(failure(#"{"code":11001,"message":"  token  gone  ","data":null}"#))
        #expect(base.baseCode == .tokenExpire)
        #expect(base.serverMessage == "token gone")
        let unexpected = try #require(failure(#"{"code":424242,"message":"no such thing"}"#))
        #expect(unexpected.rawCode == 424_242 && unexpected.isUnexpectedCode)
        #expect(unexpected.serverMessage == "no such thing")
        #expect(unexpected.errorDescription(in: .english) == "no such thing (code 424242)")
        #expect(
            unexpected.description == #"unexpected code 424242 for module studyGroup: server's message "no such thing""#
        )
        let escaped = try #require(failure(#"{"code":11219999,"message":"caf\u00e9 \ud83d\ude00 \"q\"\t!"}"#))
        #expect(escaped.serverMessage == "café 😀 \"q\" !")
        // Under the default keys "message" is just another member: no message.
        let other = ResponseDecoder()
        if case .failure(let error) = other.result(
            NoData.self, module: StudyGroupCode.self, from: Data(#"{"ret":11219999,"message":"x"}"#.utf8))
        {
            #expect(error.serverMessage == nil)
            #expect(error.errorDescription(in: .english) == "Unrecognised Study group error (code 11219999)")
        } else {
            Issue.record("expected a failure")
        }
        // A converted error keeps the message with its number.
        let converted = ModuleRespError<TagCode>(converting: escaped)
        #expect(converted.rawCode == 11_219_999 && converted.serverMessage == escaped.serverMessage)
    }

    @Test("a missing, null, empty or blank message is absent, and the catalog's text is shown")
    func absentMessages() {
        for json in [
            #"{"ret":11219999}"#, #"{"ret":11219999,"msg":null}"#, #"{"ret":11219999,"msg":""}"#,
            #"{"ret":11219999,"msg":" \t\n\u0000\u202e "}"#,
        ] {
            let result = ResponseDecoder().result(NoData.self, module: StudyGroupCode.self, from: Data(json.utf8))
            guard case .failure(let error) = result else {
                Issue.record("expected a failure for \(json)")
                continue
            }
            #expect(error.serverMessage == nil, "\(json)")
            #expect(error.errorDescription(in: .english) == "Unrecognised Study group error (code 11219999)")
        }
    }

    @Test("a message that is not a string makes the envelope invalid, saying where")
    func nonStringMessage() {
        let result = ResponseDecoder().result(
            NoData.self, module: StudyGroupCode.self, from: Data(#"{"ret":11219999,"msg":42}"#.utf8))
        guard case .failure(.invalidEnvelope(let envelope)) = result else {
            Issue.record("expected an invalid envelope, got \(result)")
            return
        }
        #expect(envelope.reason == .messageNotString(found: .integer))
        #expect(envelope.key == "msg" && envelope.offset == 22)
    }

    @Test("the switch: off, descriptions never show server text; the message is still kept")
    func offSwitch() {
        let error = Failure.module(.other(11_219_999), serverMessage: "Your team is full.")
        let unknown = Failure.unexpectedCode(424_242, serverMessage: "no such thing")
        #expect(ServerMessage.isShownInDescriptions)
        ServerMessage.isShownInDescriptions = false
        defer { ServerMessage.isShownInDescriptions = true }
        #expect(!ServerMessage.isShownInDescriptions)
        #expect(error.errorDescription(in: .english) == "Unrecognised Study group error (code 11219999)")
        #expect(
            error.description
                == "studyGroup: unrecognised code 11219999: Unrecognised Study group error (code 11219999)")
        #expect(
            ErrorPresentation(error: error, language: .english).title
                == "Unrecognised Study group error (code 11219999)")
        #expect(!unknown.errorDescription(in: .english).contains("no such thing"))
        #expect(unknown.description == "unexpected code 424242 for module studyGroup")
        #expect(error.serverMessage == "Your team is full.")
        ServerMessage.isShownInDescriptions = true
        #expect(error.errorDescription(in: .english) == "Your team is full. (code 11219999)")
    }
}
