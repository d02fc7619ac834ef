import Foundation
import SwiftErr
import Testing

@Suite("HTTP status validation")
struct StatusValidationTests {
    /// A plain reference for the kind: the first digit, and nothing outside 100...599.
    static func referenceKind(_ code: Int) -> HTTPStatusKind {
        guard code >= 100, code <= 599 else { return .invalid }
        return [HTTPStatusKind.informational, .successful, .redirection, .clientError, .serverError][code / 100 - 1]
    }

    @Test(
        "kinds follow swift-http-types at every boundary",
        arguments: [
            (Int.min, HTTPStatusKind.invalid), (-1, .invalid), (0, .invalid), (99, .invalid),
            (100, .informational), (199, .informational), (200, .successful), (299, .successful),
            (300, .redirection), (399, .redirection), (400, .clientError), (499, .clientError),
            (500, .serverError), (599, .serverError), (600, .invalid), (Int.max, .invalid),
        ])
    func kindBoundaries(code: Int, kind: HTTPStatusKind) {
        #expect(HTTPStatusKind(statusCode: code) == kind)
    }

    @Test("kind and 2xx validation agree with the reference for every code from -50 to 1050")
    func differential() {
        for code in -50...1050 {
            #expect(HTTPStatusKind(statusCode: code) == Self.referenceKind(code), "code \(code)")
            let accepted = HTTPStatusValidator.successful.accepts(code)
            #expect(accepted == (200..<300).contains(code), "code \(code)")
            do {
                try HTTPStatusValidator.successful.validate(code)
                #expect(accepted, "code \(code) passed but is not 2xx")
            } catch {
                #expect(!accepted, "code \(code) threw but is 2xx")
                #expect(error.statusCode == code)
                #expect(error.kind == Self.referenceKind(code))
            }
        }
    }

    @Test(
        "descriptions name the status, its phrase and its kind",
        arguments: [
            (503, "HTTP status 503 Service Unavailable (server error)"),
            (404, "HTTP status 404 Not Found (client error)"),
            (599, "HTTP status 599 (server error)"),
            (302, "HTTP status 302 Found (redirection)"),
            (42, "HTTP status 42 (invalid: not in 100...599)"),
        ])
    func descriptions(code: Int, text: String) {
        #expect(HTTPStatusError(statusCode: code).description == text)
    }

    @Test("LocalizedError texts in English and Simplified Chinese")
    func localizedTexts() {
        let error = HTTPStatusError(statusCode: 408)
        #expect(error.errorDescription(in: .english) == "The server answered with HTTP status 408 (Request Timeout).")
        #expect(error.errorDescription(in: .simplifiedChinese) == "服务器返回了错误的状态码 408(Request Timeout)。")
        #expect(error.failureReason(in: .english) == "The request was rejected (4xx).")
        #expect(HTTPStatusError(statusCode: 700).failureReason(in: .english) == "Status 700 is not in 100...599.")
        #expect(error.errorDescription != nil)
    }

    @Test("a custom acceptable set, and the Retry-After header kept on the thrown error")
    func customSetAndRetryAfter() throws {
        let validator = HTTPStatusValidator(acceptable: [200, 304])
        try validator.validate(304)
        #expect(throws: HTTPStatusError(statusCode: 204)) { try validator.validate(204) }
        do {
            try HTTPStatusValidator.successful.validate(503, retryAfter: "120")
            Issue.record("503 passed")
        } catch {
            #expect(error.retryAfter == .seconds(120))
        }
        do {
            try HTTPStatusValidator.successful.validate(429, retryAfter: "whenever")
            Issue.record("429 passed")
        } catch {
            #expect(error.retryAfter == nil)
        }
    }

    @Test("TransportResponse.validated(): no status passes, 2xx passes, others throw")
    func transportResponse() throws {
        try TransportResponse(statusCode: nil, body: Data()).validated()
        try TransportResponse(statusCode: 201, body: Data()).validated()
        #expect(throws: HTTPStatusError(statusCode: 500)) {
            try TransportResponse(statusCode: 500, body: Data()).validated()
        }
    }
}

@Suite("Retry-After and HTTP-date parsing")
struct StatusValidationRetryAfterTests {
    static let sunday = Date(timeIntervalSince1970: 784_111_777)  // 1994-11-06 08:49:37 UTC

    @Test(
        "the three HTTP-date forms of RFC 9110 name the same instant",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "  Sun, 06 Nov 1994 08:49:37 GMT  ",
        ])
    func threeForms(text: String) {
        #expect(HTTPDate.parse(text) == Self.sunday)
    }

    @Test(
        "impossible or malformed dates are rejected",
        arguments: [
            "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
            "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 6 Nov 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 29 Feb 2023 00:00:00 GMT", "soon", "", "Sun Nov 6 08:49 1994",
        ])
    func rejected(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("leap days and two-digit years")
    func leapDaysAndYears() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == Date(timeIntervalSince1970: 1_709_208_000))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Friday, 31-Dec-99 23:59:59 GMT") == Date(timeIntervalSince1970: 946_684_799))
        #expect(HTTPDate.parse("Saturday, 01-Jan-00 00:00:00 GMT") == Date(timeIntervalSince1970: 946_684_800))
    }

    @Test("the parser agrees with Foundation's DateFormatter on 400 dates from 1970 to 2100")
    func differentialAgainstDateFormatter() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var seconds: Int64 = 0
        for _ in 0..<400 {
            seconds += 10_368_007  // ~120 days and 7 seconds: walks across months, leap years and times
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = formatter.string(from: date)
            #expect(HTTPDate.parse(text) == date, "\(text)")
        }
    }

    @Test("Retry-After values: delta-seconds, dates, and rejected forms")
    func retryAfterValues() {
        #expect(RetryAfter(headerValue: "120") == .seconds(120))
        #expect(RetryAfter(headerValue: " 0 ") == .seconds(0))
        #expect(RetryAfter(headerValue: "99999999999999999999999") == .seconds(Int64.max))
        #expect(RetryAfter(headerValue: "Sun, 06 Nov 1994 08:49:37 GMT") == .date(Self.sunday))
        for bad in ["-5", "1.5", "soon", "", "+3", "3s"] {
            #expect(RetryAfter(headerValue: bad) == nil, "\(bad)")
        }
    }

    @Test("Retry-After delays from an injected now; a date already past waits nothing")
    func retryAfterDelays() {
        #expect(RetryAfter.seconds(7).delay(from: Self.sunday) == .seconds(7))
        #expect(RetryAfter.date(Self.sunday.addingTimeInterval(30)).delay(from: Self.sunday) == .seconds(30))
        #expect(RetryAfter.date(Self.sunday.addingTimeInterval(-30)).delay(from: Self.sunday) == .zero)
        #expect(RetryAfter.seconds(Int64.max).delay(from: Self.sunday) == .seconds(Int64.max))
    }

    @Test(
        "HTTPDate.format writes the IMF-fixdate that parse reads back to the same second",
        arguments: [784_111_777, 0, 951_782_400, 1_700_000_060, 4_102_444_799, -86_400])
    func formatRoundTrip(seconds: Int) throws {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let text = HTTPDate.format(date)
        #expect(HTTPDate.parse(text) == date, "\(text)")
        if seconds == 784_111_777 { #expect(text == "Sun, 06 Nov 1994 08:49:37 GMT") }
        if seconds == 951_782_400 { #expect(text == "Tue, 29 Feb 2000 00:00:00 GMT") }
        #expect(RetryAfter.date(date).description == text)
    }
}
