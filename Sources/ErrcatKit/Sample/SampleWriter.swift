// The lines `errcat sample` writes: a realistic mix of response envelopes, bodies in one of the
// catalog's shapes, or bare codes.

import SwiftErr

/// Writes sample lines for one table.
struct SampleWriter {
    /// Out of 1000 lines, on average: 700 success, 100 base, 120 module entries,
    /// 40 unrecognised module codes, 35 unknown codes, 5 invalid lines.
    static let mix: [(kind: Kind, perMille: UInt64)] = [
        (.success, 700), (.base, 100), (.moduleEntry, 120), (.unrecognised, 40), (.unknown, 35), (.invalid, 5),
    ]

    enum Kind { case success, base, moduleEntry, unrecognised, unknown, invalid }

    /// Lines that are not valid envelopes, as a broken backend or proxy might send them.
    static let invalidLines: [String] = [
        "{\"ret\":\"11001\",\"msg\":\"Your session has expired.\",\"data\":null}",
        "{\"msg\":\"no code\",\"data\":null}",
        "{\"ret\":11210005,\"msg\":\"The class code is wr",
        "<html><body><h1>502 Bad Gateway</h1></body></html>",
        "{\"ret\":1.5,\"msg\":\"fraction\",\"data\":null}",
        "{\"ret\":99999999999999999999,\"msg\":\"too large\",\"data\":null}",
        "",
    ]

    /// Unknown codes: not in the default catalog and outside every default module range.
    static let unknownCodes: [Int64] = [-1, 500, 99999, 10001, 12000001, 4_294_978_297, 11300007]

    let table: Catalog
    let codesOnly: Bool
    let language: Language
    let keys: EnvelopeKeys
    /// The lines in a catalog's JSON shape, written instead of envelopes; `nil` for envelopes.
    var shapeLines: ShapeSampleLines? = nil
    private let successCode: Int64
    private let baseCodes: [Int64]
    private let moduleCodes: [Int64]
    private let ranges: [ClosedRange<Int64>]
    /// Per entry index: the bytes after the code, `,"msg":"…","data":null}`.
    private var entryTails: [[UInt8]] = []
    private var prefix: [UInt8]

    init(table: Catalog, codesOnly: Bool, language: Language, keys: EnvelopeKeys) {
        self.table = table
        self.codesOnly = codesOnly
        self.language = language
        self.keys = keys
        let definition = table.definition
        successCode = definition.success.code
        baseCodes = definition.base.map(\.code)
        moduleCodes = definition.modules.flatMap { $0.codes.map(\.code) }
        ranges = definition.modules.flatMap(\.ranges)
        var buffer = OutputBuffer(descriptor: -1, threshold: Int.max)
        buffer.write(byte: UInt8(ascii: "{"))
        buffer.write(jsonKey: keys.code)
        prefix = buffer.bytes
        for index in 0..<UInt32(table.entryCount) {
            var tail = OutputBuffer(descriptor: -1, threshold: Int.max)
            tail.write(byte: UInt8(ascii: ","))
            tail.write(jsonKey: keys.message)
            tail.write(jsonString: table.entryMessage(at: index, in: language) ?? "")
            tail.write(byte: UInt8(ascii: ","))
            tail.write(jsonKey: keys.data)
            tail.write("null}")
            entryTails.append(tail.bytes)
        }
    }

    private func kind(_ random: inout SplitMix64) -> Kind {
        var roll = random.below(1000)
        for (kind, perMille) in SampleWriter.mix {
            if roll < perMille { return kind }
            roll -= perMille
        }
        return .success
    }

    /// Writes one line (with its newline).
    func writeLine(_ random: inout SplitMix64, into out: inout OutputBuffer) {
        // Drawn for every line, used only by JSONL success lines: both formats then consume
        // the same random numbers, so a seed gives the same codes in either format.
        let payloadID = Int64(random.below(1_000_000))
        var code: Int64
        switch kind(&random) {
        case .success:
            code = successCode
        case .base where !baseCodes.isEmpty:
            code = baseCodes[Int(random.below(UInt64(baseCodes.count)))]
        case .moduleEntry where !moduleCodes.isEmpty:
            code = moduleCodes[Int(random.below(UInt64(moduleCodes.count)))]
        case .unrecognised where !ranges.isEmpty:
            let range = ranges[Int(random.below(UInt64(ranges.count)))]
            let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
            code = range.lowerBound &+ Int64(bitPattern: width == 0 ? random.next() : random.below(width))
            if table.classify(code).isExact { code = range.lowerBound }  // rarely hit; keeps one draw per line
        case .invalid:
            let line = SampleWriter.invalidLines[Int(random.below(UInt64(SampleWriter.invalidLines.count)))]
            if let lines = shapeLines, !codesOnly {
                // The shape's own: an envelope's malformed line may be a well-formed body here.
                lines.invalid[Int(random.below(UInt64(lines.invalid.count)))].withUnsafeBytes { out.write(raw: $0) }
            } else {
                out.write(codesOnly ? (line.isEmpty ? "" : "n/a") : line)
            }
            out.endLine()
            return
        default:
            code = SampleWriter.unknownCodes[Int(random.below(UInt64(SampleWriter.unknownCodes.count)))]
        }
        if codesOnly {
            out.write(integer: code)
            out.endLine()
            return
        }
        if let lines = shapeLines {
            writeShapeLine(lines, code: code, payloadID: payloadID, &random, into: &out)
            return
        }
        prefix.withUnsafeBytes { out.write(raw: $0) }
        out.write(integer: code)
        let classification = table.classify(code)
        if let index = classification.entryIndex {
            if code == successCode {
                out.write(byte: UInt8(ascii: ","))
                out.write(jsonKey: keys.message)
                out.write(jsonString: table.entryMessage(at: index, in: language) ?? "")
                out.write(byte: UInt8(ascii: ","))
                out.write(jsonKey: keys.data)
                out.write("{\"id\":")
                out.write(integer: payloadID)
                out.write("}}")
            } else {
                entryTails[Int(index)].withUnsafeBytes { out.write(raw: $0) }
            }
        } else {
            out.write(byte: UInt8(ascii: ","))
            out.write(jsonKey: keys.message)
            out.write(jsonString: classification.tier == .module ? "Something went wrong" : "Internal error")
            out.write(byte: UInt8(ascii: ","))
            out.write(jsonKey: keys.data)
            out.write("null}")
        }
        out.endLine()
    }

    /// Writes one line in the catalog's shape, of the kind `code` was drawn as: a success with its
    /// payload id, or one of the shape's lines for listed entries of its tier, unlisted, unknown or
    /// malformed codes. The line is drawn with one more random number.
    private func writeShapeLine(
        _ lines: ShapeSampleLines, code: Int64, payloadID: Int64, _ random: inout SplitMix64,
        into out: inout OutputBuffer
    ) {
        let classification = table.classify(code)
        let pick: [[UInt8]]
        if code == successCode {
            lines.success.prefix.withUnsafeBytes { out.write(raw: $0) }
            out.write(integer: payloadID)
            lines.success.suffix.withUnsafeBytes { out.write(raw: $0) }
            out.endLine()
            return
        } else if classification.isExact {
            pick = classification.tier == .module && !lines.module.isEmpty ? lines.module : lines.base
        } else if classification.tier == .module && !lines.unrecognised.isEmpty {
            pick = lines.unrecognised
        } else {
            pick = lines.unknown
        }
        let chosen = pick.isEmpty ? lines.invalid : pick
        chosen[Int(random.below(UInt64(chosen.count)))].withUnsafeBytes { out.write(raw: $0) }
        out.endLine()
    }
}
