// `classify`'s summary: the counts of a run (or of merged runs), printed as a readable table or
// as one JSON object that `errcat merge` can add to others.
//
// The JSON summary (schema "errcat-summary/1") carries everything needed to add summaries
// exactly: the catalog's identity, every count, and the count of every distinct code (`codes`,
// sorted by code). Codes with a catalog entry are always all there; codes without one are
// counted one by one up to 65,536 distinct codes per run, and the lines of further distinct
// codes only in `untracked`. The top codes are derived from `codes`, so they merge exactly
// whenever `untracked` is 0 in every summary merged.

import SwiftErr

/// The counts a summary shows, indexed as the catalog numbers modules.
struct SummaryData: Equatable {
    /// The JSON summary's `schema` value.
    static let schema = "errcat-summary/1"

    var lines: UInt64 = 0
    var invalid: UInt64 = 0
    /// Indexed by `InvalidCategory.rawValue`.
    var invalidReasons = [UInt64](repeating: 0, count: InvalidCategory.allCases.count)
    /// Indexed by `Classification.Tier.rawValue`.
    var tiers = [UInt64](repeating: 0, count: 4)
    /// Per module id (element 0 unused).
    var modules: [UInt64]
    var unrecognised: [UInt64]
    /// Every code counted, by code ascending (in the tally's order when made for the readable
    /// summary, which shows only the top codes: see ``init(tally:table:ordered:)``).
    var codes: [(code: Int64, count: UInt64)] = []
    var untracked: UInt64 = 0

    init(moduleCount: Int) {
        modules = [UInt64](repeating: 0, count: moduleCount + 1)
        unrecognised = [UInt64](repeating: 0, count: moduleCount + 1)
    }

    /// The counts of a run.
    /// - Parameter ordered: Whether `codes` are sorted by code, as the JSON summary lists them;
    ///   the readable summary needs only ``topCodes(_:)``, which does not depend on the order.
    init(tally: ClassifyTally, table: Catalog, ordered: Bool = true) {
        self.init(moduleCount: table.moduleCount)
        lines = tally.lines
        invalid = tally.invalid
        invalidReasons = tally.invalidReasons
        tiers = tally.tiers
        modules = tally.modules
        unrecognised = tally.unrecognised
        codes = tally.allCodes(table: table, ordered: ordered)
        untracked = tally.untracked
    }

    var valid: UInt64 { lines - invalid }

    static func == (left: SummaryData, right: SummaryData) -> Bool {
        left.lines == right.lines && left.invalid == right.invalid && left.invalidReasons == right.invalidReasons
            && left.tiers == right.tiers && left.modules == right.modules && left.unrecognised == right.unrecognised
            && left.untracked == right.untracked && left.codes.elementsEqual(right.codes, by: { $0 == $1 })
    }

    /// The most frequent codes: (code, count), by count descending then code ascending.
    ///
    /// The codes are distinct, so that order is total and the first `limit` are one list
    /// however they are found: a full sort when `limit` is a large part of the codes, else one
    /// pass that keeps the best `limit` in a heap (a run's summary can hold 65,536 codes and
    /// more, of which 10 are shown).
    func topCodes(_ limit: Int) -> [(code: Int64, count: UInt64)] {
        func precedes(_ a: (code: Int64, count: UInt64), _ b: (code: Int64, count: UInt64)) -> Bool {
            a.count != b.count ? a.count > b.count : a.code < b.code
        }
        guard limit > 0 else { return [] }
        guard limit < codes.count / 8 else { return Array(codes.sorted(by: precedes).prefix(limit)) }
        // A binary heap of the best `limit` so far whose root is the last of them.
        var heap: [(code: Int64, count: UInt64)] = []
        heap.reserveCapacity(limit)
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var last = parent
                if left < heap.count && precedes(heap[last], heap[left]) { last = left }
                if right < heap.count && precedes(heap[last], heap[right]) { last = right }
                if last == parent { return }
                heap.swapAt(parent, last)
                parent = last
            }
        }
        for candidate in codes {
            if heap.count < limit {
                heap.append(candidate)
                var child = heap.count - 1
                while child > 0 && precedes(heap[(child - 1) / 2], heap[child]) {
                    heap.swapAt(child, (child - 1) / 2)
                    child = (child - 1) / 2
                }
            } else if precedes(candidate, heap[0]) {
                heap[0] = candidate
                siftDown(0)
            }
        }
        return heap.sorted(by: precedes)
    }
}

/// Renders a summary.
struct SummaryReport {
    let data: SummaryData
    let table: Catalog
    let describer: CodeDescriber
    let top: Int

    init(data: SummaryData, table: Catalog, describer: CodeDescriber, top: Int) {
        self.data = data
        self.table = table
        self.describer = describer
        self.top = top
    }

    /// The report of a run; `ordered: false` for the readable summary only (see
    /// ``SummaryData/init(tally:table:ordered:)``).
    init(tally: ClassifyTally, table: Catalog, describer: CodeDescriber, top: Int, ordered: Bool = true) {
        self.init(
            data: SummaryData(tally: tally, table: table, ordered: ordered), table: table, describer: describer,
            top: top)
    }

    static let tierOrder: [Classification.Tier] = [.success, .base, .module, .unknown]

    /// `count` as a share of `total`, rounded to tenths of a percent: "12.5%". Computed in 128
    /// bits, so any 64-bit counts (merged summaries reach them) give the exact share; "-" when
    /// there is no share to give: `total` is 0, or `count` exceeds it (a summary whose tiers add
    /// up to `valid` only modulo 2^64, which `SummaryFile.read` accepts).
    private func percent(_ count: UInt64, of total: UInt64) -> String {
        guard total > 0, count <= total else { return "-" }
        let product = count.multipliedFullWidth(by: 1000)
        let (low, carry) = product.low.addingReportingOverflow(total / 2)
        let tenths = total.dividingFullWidth((product.high + (carry ? 1 : 0), low)).quotient
        return "\(tenths / 10).\(tenths % 10)%"
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.unicodeScalars.count
        guard count < width else { return text }
        let spaces = String(repeating: " ", count: width - count)
        return right ? spaces + text : text + spaces
    }

    /// Invalid reasons with lines: (name, count), by count descending then name.
    private var reasons: [(name: String, count: UInt64)] {
        InvalidCategory.allCases.compactMap { category -> (name: String, count: UInt64)? in
            let count = data.invalidReasons[category.rawValue]
            return count > 0 ? (category.name, count) : nil
        }
    }

    /// Writes the readable summary.
    func writeText(into out: inout OutputBuffer) {
        out.write("lines    " + pad(String(data.lines), 12, right: true) + "\n")
        out.write("valid    " + pad(String(data.valid), 12, right: true) + "\n")
        out.write("invalid  " + pad(String(data.invalid), 12, right: true) + "\n")
        let sorted = reasons.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
        for (reason, count) in sorted {
            out.write("  " + pad(reason, 24) + " " + pad(String(count), 12, right: true) + "\n")
        }
        out.write("\ntiers (of valid lines):\n")
        for tier in SummaryReport.tierOrder {
            let count = data.tiers[Int(tier.rawValue)]
            let share = pad(percent(count, of: data.valid), 6, right: true)
            out.write("  " + pad(tier.name, 10) + " " + pad(String(count), 12, right: true) + "  " + share + "\n")
        }
        if table.moduleCount > 0 {
            out.write("\n" + pad("modules:", 27) + pad("lines", 12, right: true))
            out.write("  " + pad("unrecognised", 12, right: true) + "\n")
            for id in 1...table.moduleCount {
                let name = table.moduleName(UInt16(id)) ?? "?"
                out.write("  " + pad(name, 24) + " " + pad(String(data.modules[id]), 12, right: true))
                out.write("  " + pad(String(data.unrecognised[id]), 12, right: true) + "\n")
            }
        }
        let top = data.topCodes(self.top)
        if !top.isEmpty {
            out.write("\ntop codes:\n")
            for (code, count) in top {
                let classification = table.classify(code)
                let parts = describer.parts(code, classification)
                var label = parts.tier
                if let module = parts.module {
                    label += " " + module + (parts.name.map { "." + $0 } ?? ", unrecognised")
                } else if let name = parts.name, name != parts.tier {
                    label += " " + name
                }
                out.write("  " + pad(String(count), 12, right: true) + "  " + pad(String(code), 12, right: true))
                out.write("  " + pad(label, 40) + "  " + parts.message + "\n")
            }
        }
        if data.untracked > 0 {
            out.write(
                "\n(\(data.untracked) lines with codes beyond the first \(ClassifyTally.maxTrackedCodes) distinct "
                    + "unlisted codes, or with string codes the catalog does not list, are not in the top codes)\n")
        }
    }

    /// Writes the summary as one JSON object on one line.
    func writeJSON(into out: inout OutputBuffer) {
        out.write("{\"schema\":")
        out.write(jsonString: SummaryData.schema)
        out.write(",\"catalog\":{\"name\":")
        out.write(jsonString: table.name)
        out.write(",\"hash\":")
        out.write(jsonString: table.identity)
        out.write("},\"total\":")
        out.write(count: data.lines)
        out.write(",\"valid\":")
        out.write(count: data.valid)
        out.write(",\"invalid\":")
        out.write(count: data.invalid)
        out.write(",\"invalidReasons\":{")
        for (index, (reason, count)) in reasons.sorted(by: { $0.name < $1.name }).enumerated() {
            if index > 0 { out.write(byte: UInt8(ascii: ",")) }
            out.write(jsonKey: reason)
            out.write(count: count)
        }
        out.write("},\"tiers\":{")
        for (index, tier) in SummaryReport.tierOrder.enumerated() {
            if index > 0 { out.write(byte: UInt8(ascii: ",")) }
            out.write(jsonKey: tier.name)
            out.write(count: data.tiers[Int(tier.rawValue)])
        }
        out.write("},\"modules\":{")
        for id in stride(from: 1, through: table.moduleCount, by: 1) {
            if id > 1 { out.write(byte: UInt8(ascii: ",")) }
            out.write(jsonKey: table.moduleName(UInt16(id)) ?? "")
            out.write(count: data.modules[id])
        }
        out.write("},\"unrecognised\":{")
        for id in stride(from: 1, through: table.moduleCount, by: 1) {
            if id > 1 { out.write(byte: UInt8(ascii: ",")) }
            out.write(jsonKey: table.moduleName(UInt16(id)) ?? "")
            out.write(count: data.unrecognised[id])
        }
        out.write("},\"top\":[")
        for (index, (code, count)) in data.topCodes(top).enumerated() {
            if index > 0 { out.write(byte: UInt8(ascii: ",")) }
            out.write("{\"count\":")
            out.write(count: count)
            out.write(byte: UInt8(ascii: ","))
            describer.writeJSONMembers(code, table.classify(code), into: &out)
        }
        out.write("],\"untracked\":")
        out.write(count: data.untracked)
        out.write(",\"codes\":[")
        for (index, (code, count)) in data.codes.enumerated() {
            if index > 0 { out.write(byte: UInt8(ascii: ",")) }
            out.write(byte: UInt8(ascii: "["))
            out.write(integer: code)
            out.write(byte: UInt8(ascii: ","))
            out.write(count: count)
            out.write(byte: UInt8(ascii: "]"))
            out.flushIfFull()
        }
        out.write("]}")
        out.endLine()
    }
}
