// The streaming loop of `classify`: lines in, codes collected into blocks, each block
// classified with one call of the C batch path, then counted or printed.

import SwiftErr

/// How one `classify` run reports.
struct ClassifySettings {
    var parser: LineParser
    var each = false
    var json = false
    var maxErrorsShown = 10
    var maxLineLength = 16 << 20
    var progress = false
    var blockSize = 4096
}

/// One run over one input. Owns its block buffers (freed by `finish`).
struct ClassifyRun {
    let table: Catalog
    let describer: CodeDescriber
    let settings: ClassifySettings
    private(set) var tally: ClassifyTally
    private var codes: UnsafeMutableBufferPointer<Int64>
    private var classes: UnsafeMutableBufferPointer<Classification>
    private var lineNumbers: UnsafeMutableBufferPointer<UInt64>
    private var pending = 0
    private var lineNumber: UInt64 = 0
    private var errorsShown = 0
    var out: OutputBuffer
    private let io: ErrcatIO
    private var progress: ProgressMeter

    init(table: Catalog, describer: CodeDescriber, settings: ClassifySettings, io: ErrcatIO) {
        self.table = table
        self.describer = describer
        self.settings = settings
        self.tally = ClassifyTally(table: table)
        codes = .allocate(capacity: settings.blockSize)
        classes = .allocate(capacity: settings.blockSize)
        lineNumbers = .allocate(capacity: settings.blockSize)
        self.io = io
        out = OutputBuffer(descriptor: io.output)
        progress = ProgressMeter(enabled: settings.progress, descriptor: io.error)
    }

    /// Lines read so far.
    var lines: UInt64 { lineNumber }

    /// Reads every line of `descriptor`.
    /// - Returns: nil when the input was read to its end, or the errno of a failed read.
    mutating func consume(descriptor: Int32) -> Int32? {
        var reader = LineReader(descriptor: descriptor, maxLineLength: settings.maxLineLength)
        defer { reader.close() }
        let parser = settings.parser
        while true {
            switch reader.next() {
            case .bytes(let line):
                lineNumber += 1
                switch parser.parse(line) {
                case .code(let code):
                    codes[pending] = code
                    lineNumbers[pending] = lineNumber
                    pending += 1
                    if pending == settings.blockSize {
                        flushBlock()
                        progress.update(lines: lineNumber, bytes: reader.bytesRead)
                    }
                case .problem(let problem):
                    invalidLine(problem)
                }
            case .tooLong(let length):
                lineNumber += 1
                invalidLine(.tooLong(length: length, limit: settings.maxLineLength))
            case .end:
                flushBlock()
                progress.clear()
                return nil
            case .failure(let error):
                flushBlock()
                progress.clear()
                return error
            }
        }
    }

    private mutating func invalidLine(_ problem: LineProblem) {
        tally.addInvalid(problem)
        if errorsShown < settings.maxErrorsShown {
            errorsShown += 1
            progress.clear()
            io.printError("errcat classify: line \(lineNumber): \(problem.description)")
        }
        if settings.each {
            // Keep the output in input order.
            flushBlock()
            if settings.json {
                out.write("{\"line\":")
                out.write(count: lineNumber)
                out.write(",\"error\":")
                out.write(jsonString: problem.description)
                out.write(byte: UInt8(ascii: "}"))
            } else {
                out.write(count: lineNumber)
                out.write(": invalid: ")
                out.write(problem.description)
            }
            out.endLine()
        }
    }

    /// Classifies the pending block with the C batch path and counts or prints it.
    private mutating func flushBlock() {
        guard pending > 0 else { return }
        let input = UnsafeBufferPointer(rebasing: codes[0..<pending])
        let output = UnsafeMutableBufferPointer(rebasing: classes[0..<pending])
        table.classify(input, into: output)
        tally.add(codes: input, classes: UnsafeBufferPointer(output))
        if settings.each {
            for index in 0..<pending {
                if settings.json {
                    out.write("{\"line\":")
                    out.write(count: lineNumbers[index])
                    out.write(byte: UInt8(ascii: ","))
                    describer.writeJSONMembers(codes[index], classes[index], into: &out)
                    out.endLine()
                } else {
                    out.write(count: lineNumbers[index])
                    out.write(": ")
                    describer.writeText(codes[index], classes[index], into: &out)
                }
            }
        }
        pending = 0
    }

    /// Frees the block buffers.
    mutating func finish() {
        codes.deallocate()
        classes.deallocate()
        lineNumbers.deallocate()
    }
}
