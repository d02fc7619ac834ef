/// libFuzzer target for catalog files: bytes → `CatalogDefinition(json:problemLimit:)` (the JSON
/// tree, the shape decoder, the consistency and generated-name checks, problem location) → a
/// `Catalog` built by the C core → `errcat gen c` and `errcat gen swift` text. Compiled by
/// scripts/make/fuzz.mk with Sources/SwiftErr/JSON, Sources/SwiftErrCatalogFile and
/// Sources/ErrcatKit/Generate into one module, against SwiftErrCore and the C core:
///
///     make fuzz FUZZ_TARGETS=catalog_fuzz
///
/// Invariants (any violation traps, so libFuzzer keeps the input):
/// - A rejected file has between 1 and `problemLimit` problems, sorted by location, every
///   location (and related location) inside the file, messages one line of visible characters
///   (catalog text is escaped), and a consistent omitted count.
/// - An accepted catalog is accepted by the C core too (`errcore_build`), classifies each entry
///   code to that entry, and generates C (source and header) and Swift (one file each, and the
///   plugin's `--installing` form) that pass `GeneratedSourceAudit`: string
///   literals decode to exactly the catalog's texts, comments hold no text that ends or splices
///   them, and the only words in the code are the generator's and the catalog's identifiers.
/// - Locating many offsets in one sweep (`LineIndex.locations(of:)`) agrees with counting lines
///   and scalars from the start of the file.
/// - Read as a response body in a few shapes (`fuzzShapes`), the input gives the code, namespace
///   and message a walk of the catalog parser's tree finds, or is refused exactly when that parser
///   refuses it.
/// Hangs are findings: run with `-timeout` (scripts/fuzz/run.sh does).

import CErrCore
import SwiftErr
@_exported import SwiftErrCore

#if canImport(Glibc)
    import Glibc
#endif

/// Source paths as a command line might give them, some hostile: gen writes them into comments.
let sourcePaths = [
    "catalog/default.json", "x*/ int PWNED; /*.json", "a\\\r\nb.json", "dir\u{2028}/c\u{202E}.json", "??/\n.json",
]

func fail(_ message: String) -> Never {
    fatalError("catalog_fuzz: \(message)")
}

/// The widths of a file's lines and the locations of a few offsets, counted from the start of
/// the file in one plain pass (the reference for `LineIndex`, which binary-searches line starts).
struct CountedLines {
    /// Per line, one plus the scalars (non-continuation bytes) it holds.
    var widths: [Int] = []
    /// The location of each probed offset, clamped to the file.
    var probed: [Int: SourceLocation] = [:]

    init(_ bytes: [UInt8], probing offsets: [Int]) {
        let pending = offsets.map { max(0, min($0, bytes.count)) }.sorted()
        var next = 0
        var column = 1
        for position in 0...bytes.count {
            while next < pending.count && pending[next] == position {
                probed[pending[next]] = SourceLocation(line: widths.count + 1, column: column)
                next += 1
            }
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == 0x0A {
                widths.append(column)
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        widths.append(column)
    }

    /// The location of `offset`, one of the probed offsets.
    func location(_ offset: Int, in size: Int) -> SourceLocation {
        probed[max(0, min(offset, size))]!
    }
}

/// Line widths found lazily: line starts by `memchr` (not instrumented for coverage, so cheap in
/// this target), a line's width counted only when a problem points into it.
struct LazyLineWidths {
    let bytes: [UInt8]
    private(set) var starts: [Int] = [0]
    private var widths: [Int: Int] = [:]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count, let found = memchr(base + offset, 0x0A, raw.count - offset) {
                offset = base.distance(to: UnsafeRawPointer(found)) + 1
                starts.append(offset)
            }
        }
    }

    /// One plus the scalars on 1-based `line`, or nil when the file has no such line.
    mutating func width(ofLine line: Int) -> Int? {
        guard line >= 1 && line <= starts.count else { return nil }
        if let known = widths[line] { return known }
        let end = line < starts.count ? starts[line] - 1 : bytes.count
        var width = 1
        for byte in bytes[starts[line - 1]..<end] where byte & 0xC0 != 0x80 { width += 1 }
        widths[line] = width
        return width
    }
}

func checkRejected(_ error: CatalogFileError, bytes: [UInt8], limit: Int) {
    guard !error.problems.isEmpty, error.problems.count <= limit else {
        fail("\(error.problems.count) problems listed with limit \(limit)")
    }
    guard error.omittedCount >= 0, error.omittedCount == 0 || error.problems.count == limit else {
        fail("\(error.omittedCount) omitted while \(error.problems.count) of \(limit) listed")
    }
    var lines = LazyLineWidths(bytes)
    func valid(_ location: SourceLocation) -> Bool {
        guard let width = lines.width(ofLine: location.line) else { return false }
        return location.column >= 1 && location.column <= width
    }
    var previous = SourceLocation(line: 1, column: 1)
    for problem in error.problems {
        guard valid(problem.location), problem.related.map(valid) ?? true else {
            fail(
                "location \(problem.location) / \(problem.related.map(String.init(describing:)) ?? "-") outside the file"
            )
        }
        guard !(problem.location < previous) else { fail("problems out of order at \(problem.location)") }
        previous = problem.location
        guard !problem.message.isEmpty,
            problem.message.unicodeScalars.allSatisfy({ DisplayText.isVisible($0) })
        else {
            fail("message with a character that is not visible: \(DisplayText.quoted(problem.message, limit: 400))")
        }
    }
}

func checkAccepted(_ definition: CatalogDefinition, bytes: [UInt8], path: String) {
    let table: Catalog
    do {
        table = try Catalog(definition)
    } catch {
        fail("the reader accepts what the C core rejects: \(error.message)")
    }
    for entry in [definition.success] + definition.base + definition.modules.flatMap(\.codes) {
        let classification = table.classify(entry.code)
        guard classification.isExact, classification.flags == entry.flags,
            classification.entryIndex.flatMap({ table.entryName(at: $0) }) == entry.name
        else { fail("code \(entry.code) does not classify to entry \(entry.name)") }
        if let string = entry.string,
            table.classify(string: string, namespace: entry.namespace) != classification
        {
            fail("string code \(DisplayText.quoted(string)) does not classify as entry \(entry.name)'s code")
        }
    }
    if table.stringCodeCount != definition.stringEntries.count {
        fail("\(definition.stringEntries.count) string codes, \(table.stringCodeCount) in the built table")
    }
    let cGenerator = CSourceGenerator(definition: definition, table: table, sourcePath: path)
    do {
        _ = try cGenerator.generateChecked()
        _ = try cGenerator.generateHeaderChecked()
    } catch {
        fail("generated C fails the audit: \(error)")
    }
    let swiftGenerator = SwiftSourceGenerator(definition: definition, sourcePath: path)
    do {
        _ = try swiftGenerator.generateFilesChecked()
    } catch {
        fail("generated Swift fails: \(error.message)")
    }
    do {
        _ = try swiftGenerator.generateInstallingChecked()
    } catch {
        fail("generated Swift (--installing, the plugin's form) fails: \(error.message)")
    }
}

/// Shapes every input is read in as a response body: nested keys, an array index, the first
/// element with a member, integer and string codes, each failure rule.
let fuzzShapes: [ShapeDefinition] = [
    ShapeDefinition(
        name: "nested", code: .body([.key("error"), .key("code")]), codeType: .string,
        namespace: .location(.body([.key("error"), .key("type")])), message: .body([.key("error"), .key("message")]),
        payload: .body([.key("error")]), failure: .status),
    ShapeDefinition(name: "envelope", code: .body([.key("ret")]), payload: .body([.key("data")]), failure: .code),
    ShapeDefinition(
        name: "info",
        code: .body([.key("error"), .key("details"), .firstWhere(key: "@type", equals: "info"), .key("reason")]),
        codeType: .string, failure: .present(.body([.key("error")]))),
    ShapeDefinition(
        name: "list", code: .body([.key("errors"), .index(0), .key("code")]), codeType: .string,
        failure: .flag(.body([.key("ok")]), failsWhen: false)),
]

/// The value at `path` in a tree the catalog reader's parser made: the reference for the path
/// lookup (the first member of a repeated key; the first element whose member is the string).
func referenceValue(_ node: JSONNode, _ path: ArraySlice<ShapeDefinition.PathStep>) -> JSONNode? {
    guard let step = path.first else { return node }
    switch (step, node.value) {
    case (.key(let key), .object(let members)):
        return members.first { $0.key == key }.flatMap { referenceValue($0.value, path.dropFirst()) }
    case (.index(let index), .array(let elements)):
        return index < elements.count ? referenceValue(elements[index], path.dropFirst()) : nil
    case (.firstWhere(let key, let value), .array(let elements)):
        let match = elements.first { element in
            guard case .object(let members) = element.value, let member = members.first(where: { $0.key == key }),
                case .string(let text) = member.value.value
            else { return false }
            return Array(text.utf8) == Array(value.utf8)
        }
        return match.flatMap { referenceValue($0, path.dropFirst()) }
    default:
        return nil
    }
}

/// Reads the input as a body in each of `fuzzShapes`: a body the catalog reader's parser refuses
/// is refused as not JSON, and in one it accepts the code, namespace and message are the values
/// the reference walk finds (or the reading names the one of the wrong kind).
func checkShapeReading(_ bytes: [UInt8]) {
    let tree = bytes.withUnsafeBytes { raw in Result { () throws(JSONSyntaxError) in try JSONTreeParser.parse(raw) } }
    for shape in fuzzShapes {
        let reading = bytes.withUnsafeBytes { raw in
            Result { () throws(ShapeReading.Failure) in
                try ShapeReading(raw, shape: shape, status: nil, successCode: 0)
            }
        }
        switch (tree, reading) {
        case (.failure, .failure(.notJSON)):
            continue
        case (.failure(let error), _):
            fail("shape \(shape.name) read a body the parser refuses (\(error.message))")
        case (.success, .failure(.notJSON(let error))):
            fail("shape \(shape.name) refused a body the parser accepts (\(error.message))")
        case (.success(let root), .failure(let failure)):
            // The reading refuses a value of the wrong kind: the reference must see one.
            guard case .body(let path) = shape.code, let code = referenceValue(root, path[...]) else {
                if case .flagMissing = failure { continue }
                if case .wrongKind = failure { continue }
                fail("shape \(shape.name) failed with \(failure) where the code is missing")
            }
            switch (failure, code.value) {
            case (.codeOutOfRange, .number(let number)) where number.integer == nil: continue
            case (.wrongKind, _), (.flagMissing, _): continue
            default: fail("shape \(shape.name) failed with \(failure) on a code \(code.value.kindDescription)")
            }
        case (.success(let root), .success(let read)):
            if case .body(let path) = shape.code {
                let expected: ShapeReading.Code?
                switch referenceValue(root, path[...])?.value {
                case .string(let text)? where shape.codeType == .string: expected = .string(Array(text.utf8))
                case .number(let number)? where shape.codeType == .integer:
                    expected = number.integer.map { .integer($0) }
                case .null?, nil: expected = nil
                default: fail("shape \(shape.name) read a code of the wrong kind")
                }
                if read.code != expected { fail("shape \(shape.name) read code \(String(describing: read.code))") }
            }
            if case .location(.body(let path)) = shape.namespace {
                var expected: [UInt8]? = nil
                if case .string(let text)? = referenceValue(root, path[...])?.value { expected = Array(text.utf8) }
                if read.namespace != expected { fail("shape \(shape.name) read another namespace") }
            }
            if case .body(let path)? = shape.message {
                var expected: String? = nil
                if case .string(let text)? = referenceValue(root, path[...])?.value { expected = text }
                if read.message != expected { fail("shape \(shape.name) read another message") }
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The last byte picks the problem limit and the path; the file is every byte (the limit
    // must not change which catalogs are accepted).
    let knob = Int(bytes.last ?? 0)
    let limit = 1 + knob % 64
    let path = sourcePaths[(knob >> 6) % sourcePaths.count]
    do {
        let definition = try CatalogDefinition(json: bytes, problemLimit: limit)
        checkAccepted(definition, bytes: bytes, path: path)
    } catch {
        checkRejected(error, bytes: bytes, limit: limit)
    }
    checkShapeReading(bytes)
    // One input in eight: the sweep against counting from the start, at offsets taken from the
    // input itself (a pure function; the counting pass costs more than the reader in this target).
    if knob & 7 == 0 {
        let offsets = bytes.prefix(8).enumerated().map {
            ($0.offset * 7919 + Int($0.element) * 31) % (bytes.count + 2) - 1
        }
        let counted = CountedLines(bytes, probing: offsets)
        for (offset, location) in zip(offsets, LineIndex(bytes).locations(of: offsets))
        where counted.location(offset, in: bytes.count) != location {
            fail("offset \(offset) located at \(location), counted \(counted.location(offset, in: bytes.count))")
        }
    }
    return 0
}
