import Foundation
import SwiftErrDefaultCatalog
import Testing

@testable import SwiftErr

/// The central handler sees every base-tier response exactly once, before the module does.
@Suite("BaseCodeHandler: central handling of base codes")
struct BaseCodeHandlerTests {
    /// Events recorded by the handler, keyed by the server message (unique per request).
    final class Log: Sendable {
        let events = Locked<[String: Int]>([:])
        let reauthentications = Locked(0)

        func record(_ event: BaseCodeEvent) {
            events.withLock { $0[event.serverMessage ?? "", default: 0] += 1 }
            if event.requiresReauthentication { reauthentications.withLock { $0 += 1 } }
        }
    }

    @Test("runs once per base response, never for other responses")
    func once() {
        let log = Log()
        let decoder = ResponseDecoder(baseHandler: BaseCodeHandler { log.record($0) })
        let _: Result<NoData, ModuleRespError<StudyGroupCode>> = decoder.result(from: Fixtures.tokenExpired)
        let _: Result<NoData, ModuleRespError<StudyGroupCode>> = decoder.result(from: Fixtures.wrongTeamCode)
        let _: Result<NoData, ModuleRespError<StudyGroupCode>> = decoder.result(from: Fixtures.joinedClass)
        let _: Result<NoData, ModuleRespError<StudyGroupCode>> = decoder.result(from: Fixtures.tagCode)
        let _: Result<NoData, ModuleRespError<TagCode>> = decoder.result(
            from: Fixtures.body(#"{"ret":11002,"msg":"m2"}"#))
        #expect(log.events.withLock { $0 } == ["token expired": 1, "m2": 1])
        #expect(log.reauthentications.withLock { $0 } == 1)
    }

    @Test("the reauthenticate filter only fires for flagged codes")
    func reauthenticateFilter() {
        let count = Locked(0)
        let decoder = ResponseDecoder(baseHandler: .reauthenticate { _ in count.withLock { $0 += 1 } })
        for body in [#"{"ret":11001}"#, #"{"ret":11002}"#, #"{"ret":11004}"#, #"{"ret":11003}"#] {
            let _: Result<NoData, ModuleRespError<UploadCode>> = decoder.result(from: Fixtures.body(body))
        }
        #expect(count.withLock { $0 } == 2)
    }

    @Test("many concurrent tasks: exactly once each, and before the module sees the result")
    func concurrent() async {
        let log = Log()
        let decoder = ResponseDecoder(baseHandler: BaseCodeHandler { log.record($0) })
        let taskCount = 400
        let violations = await withTaskGroup(of: Int.self, returning: Int.self) { group in
            for i in 0..<taskCount {
                group.addTask {
                    let code = i % 3 == 0 ? 11001 : (i % 3 == 1 ? 11_210_005 : 11003)
                    let body = Fixtures.body(#"{"ret":\#(code),"msg":"req-\#(i)"}"#)
                    let outcome: Result<NoData, ModuleRespError<StudyGroupCode>> = await decoder.result {
                        await Task.yield()
                        return TransportResponse(statusCode: 200, body: body)
                    }
                    guard case .failure(let error) = outcome else { return 1 }
                    // The handler has already run (for base codes) when the module gets the error.
                    let seen = log.events.withLock { $0["req-\(i)"] ?? 0 }
                    return error.isBase == (seen == 1) && seen <= 1 ? 0 : 1
                }
            }
            return await group.reduce(0, +)
        }
        #expect(violations == 0)
        let events = log.events.withLock { $0 }
        let expectedBase = (0..<taskCount).filter { $0 % 3 != 1 }.count
        #expect(events.count == expectedBase)
        #expect(events.values.allSatisfy { $0 == 1 })
        #expect(log.reauthentications.withLock { $0 } == (0..<taskCount).filter { $0 % 3 == 0 }.count)
    }
}
