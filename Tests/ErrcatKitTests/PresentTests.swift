// `errcat explain --present`: codes presented by the library's ErrorPresentation (actions from the
// catalog flags) and rendered by its terminal presenter.

import Foundation
import SwiftErr
import SwiftErrDefaultCatalog
import Testing

@Suite("errcat explain --present")
struct PresentTests {
    @Test("token expiry offers signing in, in English and Chinese")
    func tokenExpiry() throws {
        let english = try ErrcatRunner.run(["explain", "--present", "11001"])
        #expect(english.status == 0)
        #expect(
            english.output == """
                error: Your session has expired. Please sign in again.
                  The server answered with the general code 11001 (tokenExpire). Sign in again.
                  [1] Sign In
                  [2] Cancel

                """)
        let chinese = try ErrcatRunner.run(["explain", "--present", "--lang", "zh-Hans", "11001"])
        #expect(
            chinese.output == """
                error: 登录已过期,请重新登录。
                  服务器返回通用错误码 11001(tokenExpire)。请重新登录。
                  [1] 登录
                  [2] 取消

                """)
    }

    @Test("a module code, an unrecognised code and an unknown code have a single acknowledgement")
    func plainCodes() throws {
        let result = try ErrcatRunner.run(["explain", "--present", "11210005", "11219999", "4294978297"])
        #expect(result.status == 0)
        #expect(
            result.output == """
                error: The class code is wrong.
                  The server answered with the Study group code 11210005 (wrongTeamCode).
                error: Unrecognised Study group error (code 11219999)
                  The server answered with the Study group code 11219999, which this app does not know.
                error: Unknown response code 4294978297
                  The server answered with the unknown code 4294978297.

                """)
    }

    @Test("a retryable code offers Try Again; retryable and fatal is only acknowledged")
    func retryableCodes() throws {
        let catalog = """
            {"format": "swifterr-catalog/1", "name": "retries",
             "success": {"code": 0, "name": "ok", "message": {"en": "OK"}},
             "base": [{"code": 11001, "name": "busy", "flags": ["retryable"], "message": {"en": "Busy."}}],
             "modules": [{"name": "sync", "title": {"en": "Sync"}, "ranges": [[11900000, 11909999]],
               "codes": [{"code": 11900002, "name": "frozen", "flags": ["retryable", "fatal"],
                          "message": {"en": "Frozen."}}]}]}
            """
        let file = try ErrcatRunner.temporaryFile(Data(catalog.utf8), name: "retries.json")
        let result = try ErrcatRunner.run(["explain", "--present", "--catalog", file.path, "11001", "11900002"])
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output == """
                error: Busy.
                  The server answered with the general code 11001 (busy). Try again later.
                  [1] Try Again
                  [2] Cancel
                error: Frozen.
                  The server answered with the Sync code 11900002 (frozen).

                """)
    }

    @Test("errcat shows exactly the library's presentation of each code", arguments: [11001, 11210005, 0, 424_242])
    func sameAsLibrary(code: Int64) throws {
        let result = try ErrcatRunner.run(["explain", "--present", String(code)])
        let presentation = ErrorPresentation(code: code, in: .builtIn, language: .english)
        #expect(result.output.hasPrefix("error: \(presentation.title)\n"))
        if let message = presentation.message { #expect(result.output.contains("  \(message)\n")) }
        if presentation.actions.count > 1 {
            for (index, action) in presentation.actions.enumerated() {
                #expect(result.output.contains("  [\(index + 1)] \(action.title)\n"))
            }
        }
    }

    @Test("--present with --json is a usage error")
    func conflictingFormats() throws {
        let result = try ErrcatRunner.run(["explain", "--present", "--json", "0"])
        #expect(result.status == 2)
    }
}
