import Foundation

/// A parser for HTTP-dates (RFC 9110 §5.6.7), as sent in `Retry-After`.
///
/// All three forms a recipient must accept are read: the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
/// (`Sunday, 06-Nov-94 08:49:37 GMT`; a two-digit year `70...99` is `19yy`, `00...69` is `20yy`)
/// and the obsolete asctime form (`Sun Nov  6 08:49:37 1994`). Parsing is locale-independent
/// and uses no `DateFormatter`.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Parses an HTTP-date.
    /// - Parameter text: The header value (surrounding spaces are ignored).
    /// - Returns: The instant, or `nil` when the text is not an HTTP-date in one of the three
    ///   forms or names an impossible date or time (e.g. 31 Feb, hour 24).
    package static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if fields.count == 6, fields[0].hasSuffix(","), shortDays.contains(String(fields[0].dropLast())),
            fields[5] == "GMT"
        {
            // IMF-fixdate: day-name "," SP DD SP Mon SP YYYY SP HH:MM:SS SP "GMT"
            guard fields[1].count == 2, fields[3].count == 4,
                let day = Int(fields[1]), let month = monthNumber(fields[2]), let year = Int(fields[3])
            else { return nil }
            return make(year: year, month: month, day: day, time: fields[4])
        }
        if fields.count == 4, fields[0].hasSuffix(","), longDays.contains(String(fields[0].dropLast())),
            fields[3] == "GMT"
        {
            // RFC 850: day-name-l "," SP DD-Mon-YY SP HH:MM:SS SP "GMT"
            let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[0].count == 2, parts[2].count == 2,
                let day = Int(parts[0]), let month = monthNumber(parts[1]), let yy = Int(parts[2])
            else { return nil }
            return make(year: yy >= 70 ? 1900 + yy : 2000 + yy, month: month, day: day, time: fields[2])
        }
        if fields.count == 5, shortDays.contains(fields[0]) {
            // asctime: day-name SP Mon SP ( DD / SP D ) SP HH:MM:SS SP YYYY
            guard let month = monthNumber(fields[1]), (1...2).contains(fields[2].count), let day = Int(fields[2]),
                fields[4].count == 4, let year = Int(fields[4])
            else { return nil }
            return make(year: year, month: month, day: day, time: fields[3])
        }
        return nil
    }

    /// Formats an instant as an IMF-fixdate, the form servers send (`Sun, 06 Nov 1994 08:49:37 GMT`).
    /// - Parameter date: The instant; fractions of a second are dropped (rounded down).
    /// - Returns: The HTTP-date, which ``parse(_:)`` reads back to the same whole second.
    package static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        var days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        // 1970-01-01 was a Thursday (index 3 in `shortDays`, which starts on Monday).
        let weekday = shortDays[((days % 7 + 7) % 7 + 3) % 7]
        var year = 1970
        while true {
            let length = isLeap(year) ? 366 : 365
            if days < 0 {
                year -= 1
                days += isLeap(year) ? 366 : 365
            } else if days >= length {
                days -= length
                year += 1
            } else {
                break
            }
        }
        var month = 1
        while days >= daysIn(month: month, year: year) {
            days -= daysIn(month: month, year: year)
            month += 1
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let time = "\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        return "\(weekday), \(two(days + 1)) \(months[month - 1]) \(year) \(time) GMT"
    }

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name).map { $0 + 1 }
    }

    /// Builds the instant from checked fields; `time` is `HH:MM:SS`.
    private static func make(year: Int, month: Int, day: Int, time: String) -> Date? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date: whole years, then whole months.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        // Count leap days before `year` relative to 1970 with the 4/100/400 rule.
        func leapsBefore(_ y: Int) -> Int {
            let p = y - 1
            return p / 4 - p / 100 + p / 400
        }
        var days = (year - 1970) * 365 + (leapsBefore(year) - leapsBefore(1970))
        for m in 1..<month { days += daysIn(month: m, year: year) }
        return days + day - 1
    }
}
