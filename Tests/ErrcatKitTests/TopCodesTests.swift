// The top codes of a summary: the first N codes by count descending then code ascending, the
// same list whether found by a full sort or by the heap `topCodes` keeps for a short list.

import SwiftErr
import Testing

@testable import ErrcatKit

@Suite("summary top codes")
struct TopCodesTests {
    @Test("the heap's top codes are the full sort's, for random counts with many ties")
    func agreesWithSort() {
        var random = SplitMix64(seed: 41)
        for round in 0..<300 {
            var data = SummaryData(moduleCount: 0)
            let distinct = Set((0..<Int(random.next() % 3000)).map { _ in Int64(bitPattern: random.next()) % 50_000 })
            let spread = 1 + random.next() % 20
            data.codes = distinct.sorted().shuffled(using: &random).map { ($0, random.next() % spread) }
            let sorted = data.codes.sorted { $0.count != $1.count ? $0.count > $1.count : $0.code < $1.code }
            for limit in [0, 1, 2, 10, 99, Int(random.next() % 400), data.codes.count, data.codes.count + 5] {
                let top = data.topCodes(limit)
                #expect(top.map(\.code) == sorted.prefix(limit).map(\.code), "round \(round), limit \(limit)")
                #expect(top.map(\.count) == sorted.prefix(limit).map(\.count), "round \(round), limit \(limit)")
            }
        }
    }
}
