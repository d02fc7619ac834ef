import GatewayKit
import SwiftErr
import Testing

/// The language of a 401 body for a client's `Accept-Language`, chosen by the language rule.
@Suite("Accept-Language picks the 401 body's language by the language rule")
struct AcceptLanguageTests {
    @Test(
        "each header value gives the body language the rule serves it with",
        arguments: [
            ("zh-CN,zh;q=0.9", "zh-Hans"),
            ("zh", "zh-Hans"),
            ("zh-Hans-SG", "zh-Hans"),
            ("ZH-cn", "zh-Hans"),
            ("zh-TW", "en"),
            ("zh-Hant-HK, zh;q=0.5", "zh-Hans"),
            ("en-GB,zh-CN;q=0.8", "en"),
            ("fr-FR, zh-CN;q=0.7", "zh-Hans"),
            ("zh-CN;q=0.2, en;q=0.9", "en"),
            ("zh-CN;q=0, fr", "en"),
            ("*", "en"),
            ("not a tag, zh-CN;q=0.1", "zh-Hans"),
            ("", "en"),
        ])
    func bodyLanguage(header: String, expected: String) {
        #expect(Gateway.language(accepting: header) == Language(tag: expected))
    }
}
