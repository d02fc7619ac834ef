// Printing a ClassifyTally: a readable table, or one JSON object.

import SwiftErr

/// Renders `classify`'s summary.
struct SummaryReport {
    let tally: ClassifyTally
    let table: Catalog
    let describer: CodeDescriber
    let top: Int

    private static let tierOrder: [Classification.Tier] = [.success, .base, .module, .unknown]

    private func percent(_ count: UInt64, of total: UInt64) -> String {
        guard total > 0 else { return "-" }
        let tenths = (count * 1000 + total / 2) / total
        return "\(tenths / 10).\(tenths % 10)%"
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.unicodeScalars.count
        guard count < width else { return text }
        let spaces = String(repeating: " ", count: width - count)
        return right ? spaces + text : text + spaces
    }

    /// Writes the readable summary.
    func writeText(into out: inout OutputBuffer) {
        out.write("lines    \(pad(String(tally.lines), 12, right: true))\n")
        out.write("valid    \(pad(String(tally.valid), 12, right: true))\n")
        out.write("invalid  \(pad(String(tally.invalid), 12, right: true))\n")
        let reasons = tally.invalidReasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        for (reason, count) in reasons {
            out.write("  \(pad(reason, 24)) \(pad(String(count), 12, right: true))\n")
        }
        out.write("\ntiers (of valid lines):\n")
        for tier in SummaryReport.tierOrder {
            let count = tally.tiers[Int(tier.rawValue)]
            out.write(
                "  \(pad(tier.name, 10)) \(pad(String(count), 12, right: true))  \(pad(percent(count, of: tally.valid), 6, right: true))\n"
            )
        }
        if table.moduleCount > 0 {
            out.write(
                "\n\(pad("modules:", 27))\(pad("lines", 12, right: true))  \(pad("unrecognised", 12, right: true))\n")
            for id in 1...table.moduleCount {
                let name = table.moduleName(UInt16(id)) ?? "?"
                out.write(
                    "  \(pad(name, 24)) \(pad(String(tally.modules[id]), 12, right: true))  \(pad(String(tally.unrecognised[id]), 12, right: true))\n"
                )
            }
        }
        let top = tally.topCodes(self.top, table: table)
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
                out.write(
                    "  \(pad(String(count), 12, right: true))  \(pad(String(code), 12, right: true))  \(pad(label, 40))  \(parts.message)\n"
                )
            }
        }
        if tally.untracked > 0 {
            out.write(
                "\n(\(tally.untracked) lines with codes beyond the first \(ClassifyTally.maxTrackedCodes) distinct unlisted codes are not in the top codes)\n"
            )
        }
    }

    /// Writes the summary as one JSON object on one line.
    func writeJSON(into out: inout OutputBuffer) {
        out.write("{\"total\":")
        out.write(count: tally.lines)
        out.write(",\"valid\":")
        out.write(count: tally.valid)
        out.write(",\"invalid\":")
        out.write(count: tally.invalid)
        out.write(",\"invalidReasons\":{")
        for (index, (reason, count)) in tally.invalidReasons.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out.write(byte: UInt8(ascii: ",")) }
            out.write(jsonKey: reason)
            out.write(count: count)
        }
        out.write("},\"tiers\":{")
        for (index, tier) in SummaryReport.tierOrder.enumerated() {
            if index > 0 { out.write(byte: UInt8(ascii: ",")) }
            out.write(jsonKey: tier.name)
            out.write(count: tally.tiers[Int(tier.rawValue)])
        }
        out.write("},\"modules\":{")
        for id in stride(from: 1, through: table.moduleCount, by: 1) {
            if id > 1 { out.write(byte: UInt8(ascii: ",")) }
            out.write(jsonKey: table.moduleName(UInt16(id)) ?? "")
            out.write(count: tally.modules[id])
        }
        out.write("},\"unrecognised\":{")
        for id in stride(from: 1, through: table.moduleCount, by: 1) {
            if id > 1 { out.write(byte: UInt8(ascii: ",")) }
            out.write(jsonKey: table.moduleName(UInt16(id)) ?? "")
            out.write(count: tally.unrecognised[id])
        }
        out.write("},\"top\":[")
        for (index, (code, count)) in tally.topCodes(top, table: table).enumerated() {
            if index > 0 { out.write(byte: UInt8(ascii: ",")) }
            out.write("{\"count\":")
            out.write(count: count)
            out.write(byte: UInt8(ascii: ","))
            describer.writeJSONMembers(code, table.classify(code), into: &out)
        }
        out.write("],\"untracked\":")
        out.write(count: tally.untracked)
        out.write(byte: UInt8(ascii: "}"))
        out.endLine()
    }
}
