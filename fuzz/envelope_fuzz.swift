#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer target for `ResponseEnvelope.parse` (Sources/SwiftErr/Envelope), compiled together
/// with those sources and `Tests/ErrcatKitTests/Support/EnvelopeReference.swift`:
///
///     swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name SwiftErr \
///       Sources/SwiftErr/Envelope/*.swift Sources/SwiftErr/JSON/JSONScanner.swift \
///       Sources/SwiftErr/JSON/UTF8SequenceShape.swift \
///       Sources/ErrcatKit/Classify/LineReader.swift Tests/ErrcatKitTests/Support/EnvelopeReference.swift fuzz/envelope_fuzz.swift
///
/// Every input must give exactly one outcome — an envelope or an `EnvelopeError` — the same
/// through all three entry points (raw buffer, array, non-contiguous collection), for both key
/// sets, and the one the independent reference reader predicts: an envelope with the same code,
/// message, payload range and kind for a valid envelope, and an error whose reason is one of
/// the problems the input really has otherwise. The stream classifier's code-only path
/// (`ResponseEnvelope.code(in:keys:)`) must give the same code or the same error as the full
/// parse, on the whole input and on each of its lines (as `errcat classify` cuts them). The
/// stream's chunk reader (Sources/ErrcatKit/Classify/LineReader.swift, compiled in) must cut the
/// input into exactly its lines, whatever the chunk size and line limit (taken from the input),
/// with a line of exactly the limit plus CR LF whole and a longer one reported with its length.
/// Any disagreement traps.

/// Problems the reference finds, in `EnvelopeError.Reason` terms but without offsets.
enum Problem: Hashable, CaseIterable {
    case syntax  // malformed JSON, invalid UTF-8 (any reason may then be reported first)
    case notAnObject, missingCode, codeNotInteger, codeOutOfRange, messageNotString, duplicateKey, nestingTooDeep
}

/// The problems of an input, as an error so that it fits in a `Result`.
struct Problems: Error {
    var set: Set<Problem>
}

func problem(of reason: EnvelopeError.Reason) -> Problem {
    switch reason {
    case .malformedJSON, .invalidUTF8: return .syntax
    case .notAnObject: return .notAnObject
    case .missingCode: return .missingCode
    case .codeNotInteger: return .codeNotInteger
    case .codeOutOfRange: return .codeOutOfRange
    case .messageNotString: return .messageNotString
    case .duplicateKey: return .duplicateKey
    case .nestingTooDeep: return .nestingTooDeep
    }
}

func kind(_ k: ReferenceJSON.Kind) -> JSONValueKind {
    switch k {
    case .object: return .object
    case .array: return .array
    case .string: return .string
    case .integer: return .integer
    case .fraction: return .nonIntegerNumber
    case .bool: return .bool
    case .null: return .null
    }
}

/// The reference outcome: the envelope, or the set of problems (any of which may be reported).
func expected(_ bytes: [UInt8], document: ReferenceJSON.Document, keys: EnvelopeKeys) -> Result<
    ResponseEnvelope, Problems
> {
    guard case .valid(let top, let members, let maxLevel) = document else {
        return .failure(Problems(set: Set(Problem.allCases)))
    }
    var problems: Set<Problem> = []
    if maxLevel >= 512 { problems.insert(.nestingTooDeep) }
    guard top == .object else {
        problems.insert(.notAnObject)
        return .failure(Problems(set: problems))
    }
    let codeKey = Array(keys.code.utf8)
    let messageKey = Array(keys.message.utf8)
    let dataKey = Array(keys.data.utf8)
    var result = ResponseEnvelope(code: 0)
    var code: Int64? = nil
    for key in [codeKey, messageKey, dataKey] where members.filter({ $0.key == key }).count > 1 {
        problems.insert(.duplicateKey)
    }
    for member in members {
        switch member.key {
        case codeKey:
            guard member.kind == .integer else {
                problems.insert(.codeNotInteger)
                continue
            }
            let text = String(decoding: bytes[member.range], as: UTF8.self)
            if let value = Int64(text) { code = value } else { problems.insert(.codeOutOfRange) }
        case messageKey:
            switch member.kind {
            case .string: result.message = String(decoding: member.decodedString ?? [], as: UTF8.self)
            case .null: break
            default: problems.insert(.messageNotString)
            }
        case dataKey:
            result.dataRange = member.range
            result.dataKind = kind(member.kind)
        default:
            break
        }
    }
    if !members.contains(where: { $0.key == codeKey }) { problems.insert(.missingCode) }
    if !problems.isEmpty { return .failure(Problems(set: problems)) }
    result.code = code!
    return .success(result)
}

/// A byte collection without contiguous storage, to drive the copying overload.
struct Scattered: Collection {
    let base: [UInt8]
    var startIndex: Int { 0 }
    var endIndex: Int { base.count }
    func index(after i: Int) -> Int { i + 1 }
    subscript(i: Int) -> UInt8 { base[i] }
}

func outcome(_ body: () throws(EnvelopeError) -> ResponseEnvelope) -> Result<ResponseEnvelope, EnvelopeError> {
    do { return .success(try body()) } catch { return .failure(error) }
}

func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    print("envelope_fuzz: \(message)\n  input: \(bytes.map { String($0, radix: 16) })")
    fatalError(message)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelope(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let bytes = Array(raw)
    checkChunkReader(bytes)
    // The reference reads the input once; each key set is then checked against it.
    let document = ReferenceJSON.read(bytes)
    for keys in [EnvelopeKeys.default, EnvelopeKeys.codeMessage] {
        let viaBuffer = outcome { () throws(EnvelopeError) in try ResponseEnvelope.parse(raw, keys: keys) }
        let viaArray = outcome { () throws(EnvelopeError) in try ResponseEnvelope.parse(bytes, keys: keys) }
        let viaCopy = outcome { () throws(EnvelopeError) in
            try ResponseEnvelope.parse(Scattered(base: bytes), keys: keys)
        }
        guard viaBuffer == viaArray, viaArray == viaCopy else {
            fail("entry points disagree: \(viaBuffer) / \(viaArray) / \(viaCopy)", bytes)
        }
        let matcher = EnvelopeKeyMatcher(keys)
        checkCodeOnly(raw, keys: keys, matcher: matcher, parsed: viaBuffer, bytes)
        // The lines as `errcat classify` cuts them, with the default keys (one key set is enough
        // for the line cutting; both are checked on the whole input).
        if keys == .default && raw.contains(0x0A) {
            var lineStart = 0
            for index in 0...size where index == size || raw[index] == 0x0A {
                let line = UnsafeRawBufferPointer(rebasing: raw[lineStart..<index])
                let parsed = outcome { () throws(EnvelopeError) in try ResponseEnvelope.parse(line, keys: keys) }
                checkCodeOnly(line, keys: keys, matcher: matcher, parsed: parsed, bytes)
                lineStart = index + 1
            }
        }
        switch (viaBuffer, expected(bytes, document: document, keys: keys)) {
        case (.success(let got), .success(let want)):
            guard got == want else { fail("envelope \(got), reference \(want)", bytes) }
        case (.failure(let error), .failure(let problems)):
            guard problems.set.contains(problem(of: error.reason)) else {
                fail("error \(error) is not among the problems \(problems.set)", bytes)
            }
            guard error.offset >= 0, error.offset <= size else {
                fail("offset \(error.offset) outside the input", bytes)
            }
            _ = error.description
        case (.success(let got), .failure(let problems)):
            fail("accepted \(got), reference found \(problems.set)", bytes)
        case (.failure(let error), .success(let want)):
            fail("rejected with \(error), reference reads \(want)", bytes)
        }
    }
    return 0
}

/// The code-only path agrees with the full parse (`parsed`) on `line`.
func checkCodeOnly(
    _ line: UnsafeRawBufferPointer, keys: EnvelopeKeys, matcher: EnvelopeKeyMatcher,
    parsed: Result<ResponseEnvelope, EnvelopeError>, _ bytes: [UInt8]
) {
    let codeOnly: Result<Int64, EnvelopeError>
    do {
        codeOnly = .success(try ResponseEnvelope.code(in: line, keys: matcher))
    } catch {
        codeOnly = .failure(error)
    }
    switch (parsed, codeOnly) {
    case (.success(let envelope), .success(let code)) where envelope.code == code: return
    case (.failure(let a), .failure(let b)) where a == b: return
    default: fail("code-only path \(codeOnly) differs from the parse \(parsed)", bytes)
    }
}

/// A line as the chunk reader must hand it on: its bytes, or its length when over the limit.
enum ReaderLine: Equatable {
    case bytes([UInt8])
    case tooLong(UInt64)
}

/// The chunk reader cuts `bytes` (written to a pipe) into exactly the input's lines.
func checkChunkReader(_ bytes: [UInt8]) {
    // The whole input goes into a pipe before it is read: it must fit in the pipe's buffer
    // (64 KiB on Linux), or the write would wait for a reader that never comes.
    guard bytes.count >= 2 && bytes.count <= 32 << 10 else { return }
    let chunkSize = 16 + Int(bytes[0] % 48)
    let maxLineLength = 1 + Int(bytes[1] % 40)
    // The reference: split at LF, a last line without LF kept, a CR before the end dropped.
    var want: [ReaderLine] = []
    var start = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
        if index == bytes.count && start == index { break }
        var line = Array(bytes[start..<index])
        if line.last == 0x0D { line.removeLast() }
        want.append(line.count > maxLineLength ? .tooLong(UInt64(line.count)) : .bytes(line))
        start = index + 1
    }
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { fail("pipe failed", bytes) }
    defer { close(descriptors[0]) }
    let written = bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress!, $0.count) }
    close(descriptors[1])
    guard written == bytes.count else { fail("short write to the pipe", bytes) }
    var reader = ChunkReader(descriptor: descriptors[0], maxLineLength: maxLineLength)
    var buffer = ChunkBuffer(size: chunkSize)
    defer {
        reader.close()
        buffer.free()
    }
    var got: [ReaderLine] = []
    reading: while true {
        switch reader.next(into: &buffer) {
        case .lines:
            let chunk = Array(buffer.lines)
            guard chunk.last == 0x0A || reader.bytesRead == UInt64(bytes.count) else {
                fail("a chunk ends inside a line", bytes)
            }
            var lineStart = 0
            for index in 0...chunk.count where index == chunk.count || chunk[index] == 0x0A {
                if index == chunk.count && lineStart == index { break }
                var line = Array(chunk[lineStart..<index])
                if line.last == 0x0D { line.removeLast() }
                got.append(line.count > maxLineLength ? .tooLong(UInt64(line.count)) : .bytes(line))
                lineStart = index + 1
            }
        case .tooLong(let length): got.append(.tooLong(length))
        case .end: break reading
        case .failure(let error): fail("read failed: \(error)", bytes)
        }
    }
    guard got == want else { fail("chunk reader lines \(got), expected \(want)", bytes) }
}
