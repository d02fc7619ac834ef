// `errcat explain --present`: codes rendered through the library's presentation model and
// terminal presenter.

import Foundation
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
                  From: base tokenExpire (code 11001). Sign in again.
                  [1] Sign In
                  [2] Cancel

                """)
        let chinese = try ErrcatRunner.run(["explain", "--present", "--lang", "zh-Hans", "11001"])
        #expect(chinese.output.contains("error: 登录已过期,请重新登录。"))
        #expect(chinese.output.contains("[1] 登录"))
        #expect(chinese.output.contains("[2] 取消"))
    }

    @Test("a module code and an unknown code have a single acknowledgement, no choices")
    func plainCodes() throws {
        let result = try ErrcatRunner.run(["explain", "--present", "11210005", "4294978297"])
        #expect(result.status == 0)
        #expect(
            result.output == """
                error: The class code is wrong.
                  From: module studyGroup.wrongTeamCode (code 11210005).
                error: Unknown response code 4294978297
                  From: unknown (code 4294978297).

                """)
    }

    @Test("--present with --json is a usage error")
    func conflictingFormats() throws {
        let result = try ErrcatRunner.run(["explain", "--present", "--json", "0"])
        #expect(result.status == 2)
    }
}
