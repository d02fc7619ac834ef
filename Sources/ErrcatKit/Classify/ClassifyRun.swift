// The streaming loop of `classify`: the input is cut into chunks of whole lines; each chunk's
// lines are parsed, their codes collected into blocks, each block classified with one call of
// the C batch path and counted or printed; the chunks' results are then taken in input order.
// With `--jobs N` the chunks are classified by N threads at once and taken in the same order,
// so the output is the same as with one.

import SwiftErr
import SwiftErrCatalogFile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How one `classify` run reports.
struct ClassifySettings {
    var parser: LineParser
    /// Reads lines in the catalog's shapes instead of `parser`, when the catalog declares JSON shapes.
    var shapes: ShapeLineReader? = nil
    var each = false
    var json = false
    var maxErrorsShown = 10
    var maxLineLength = 16 << 20
    var progress = false
    var blockSize = 4096
    /// Threads classifying chunks; 1 classifies on the calling thread.
    var jobs = 1
    /// Bytes read per chunk (a chunk grows only to hold one long line).
    var chunkSize = 1 << 20
}

/// What one chunk gave: its counts, the first invalid lines to report, its line count.
struct ChunkResult {
    var tally: ClassifyTally
    /// Invalid lines to report on stderr (at most `maxErrorsShown`), numbered as in the chunk.
    var errors: [(line: UInt64, text: String)] = []
    var lines: UInt64 = 0
    /// The number the chunk's first line was given.
    var firstLine: UInt64 = 1

    init(table: Catalog) {
        tally = ClassifyTally(table: table, limited: false)
    }

    mutating func reset(firstLine: UInt64) {
        tally.reset()
        errors.removeAll(keepingCapacity: true)
        lines = 0
        self.firstLine = firstLine
    }
}

/// Classifies the lines of chunks: owns the block buffers of one thread.
struct ChunkClassifier {
    let table: Catalog
    let describer: CodeDescriber
    let settings: ClassifySettings
    private var codes: UnsafeMutableBufferPointer<Int64>
    private var classes: UnsafeMutableBufferPointer<Classification>
    private var lineNumbers: UnsafeMutableBufferPointer<UInt64>
    private var pending = 0

    init(table: Catalog, describer: CodeDescriber, settings: ClassifySettings) {
        self.table = table
        self.describer = describer
        self.settings = settings
        codes = .allocate(capacity: settings.blockSize)
        classes = .allocate(capacity: settings.blockSize)
        lineNumbers = .allocate(capacity: settings.blockSize)
    }

    /// Frees the block buffers.
    mutating func free() {
        codes.deallocate()
        classes.deallocate()
        lineNumbers.deallocate()
    }

    /// Classifies every line of `chunk` into `result` (lines numbered from `result.firstLine`),
    /// writing `--each` rows to `out`.
    mutating func classify(_ chunk: UnsafeRawBufferPointer, into result: inout ChunkResult, out: inout OutputBuffer) {
        guard let base = chunk.baseAddress else { return }
        let count = chunk.count
        let parser = settings.parser
        let maxLineLength = settings.maxLineLength
        let blockSize = settings.blockSize
        let each = settings.each
        var lineNumber = result.firstLine &- 1
        var start = 0
        while start < count {
            let lineEnd: Int
            if let newline = memchr(base + start, 0x0A, count - start) {
                lineEnd = base.distance(to: UnsafeRawPointer(newline))
            } else {
                lineEnd = count
            }
            var end = lineEnd
            if end > start && base.load(fromByteOffset: end - 1, as: UInt8.self) == 0x0D { end -= 1 }
            let line = UnsafeRawBufferPointer(start: base + start, count: end - start)
            start = lineEnd + 1
            lineNumber &+= 1
            if line.count > maxLineLength {
                invalidLine(.tooLong(length: UInt64(line.count), limit: maxLineLength), lineNumber, &result, &out)
                continue
            }
            if let shapes = settings.shapes {
                shapeLine(shapes.read(line), lineNumber, &result, &out)
                continue
            }
            switch parser.parse(line) {
            case .code(let code):
                codes[pending] = code
                if each { lineNumbers[pending] = lineNumber }
                pending += 1
                if pending == blockSize { flushBlock(&result, &out) }
            case .problem(let problem):
                invalidLine(problem, lineNumber, &result, &out)
            }
        }
        flushBlock(&result, &out)
        result.lines = lineNumber &- (result.firstLine &- 1)
    }

    /// Counts (and with `--each` writes) one line read in the catalog's shapes. A line whose code
    /// is an entry's goes through the integer path as that entry's code, so that it is counted
    /// and listed by code; one whose string code the catalog does not list has no integer code,
    /// and is counted by tier and module only (untracked).
    private mutating func shapeLine(
        _ outcome: ShapeLineOutcome, _ lineNumber: UInt64, _ result: inout ChunkResult,
        _ out: inout OutputBuffer
    ) {
        let line: ShapeLine
        switch outcome {
        case .problem(let problem):
            invalidLine(problem, lineNumber, &result, &out)
            return
        case .line(let read):
            line = read
        }
        let code = line.classification.entryIndex.flatMap { table.code(at: $0) }
        if let code {
            codes[pending] = code
            if settings.each { lineNumbers[pending] = lineNumber }
            pending += 1
            // Each line's row carries its shape and string: write it now, in order.
            if settings.each || pending == settings.blockSize { flushBlock(&result, &out, writing: false) }
        } else {
            flushBlock(&result, &out)
            result.tally.addUncoded(line.classification)
        }
        guard settings.each else { return }
        if settings.json {
            out.write("{\"line\":")
            out.write(count: lineNumber)
            out.write(",\"shape\":")
            out.write(jsonOptionalString: line.shape)
            if let key = line.stringKey {
                out.write(",\"string\":")
                out.write(jsonString: String(decoding: key.string, as: UTF8.self))
                out.write(",\"namespace\":")
                out.write(jsonString: String(decoding: key.namespace, as: UTF8.self))
            }
            out.write(",")
            if let code {
                describer.writeJSONMembers(code, line.classification, into: &out)
            } else {
                out.write("\"code\":null,\"tier\":")
                out.write(jsonString: line.classification.tier.name)
                out.write(",\"module\":")
                let module = line.classification.moduleID
                out.write(jsonOptionalString: module == 0 ? nil : table.moduleName(module))
                out.write(",\"exact\":false}")
            }
            out.endLine()
        } else {
            out.write(count: lineNumber)
            out.write(": ")
            if let shape = line.shape { out.write("(\(DisplayText.bare(shape))) ") }
            if let key = line.stringKey {
                out.write(DisplayText.quoted(String(decoding: key.string, as: UTF8.self)))
                out.write(
                    key.namespace.isEmpty
                        ? "" : " in \(DisplayText.quoted(String(decoding: key.namespace, as: UTF8.self)))")
                out.write(" → ")
            }
            if let code {
                describer.writeText(code, line.classification, into: &out)
            } else {
                let module = line.classification.moduleID
                out.write(
                    module == 0 ? "unknown" : "module \(DisplayText.bare(table.moduleName(module) ?? "")), unrecognised"
                )
                out.endLine()
            }
        }
    }

    /// Counts one over-long line that the reader skipped.
    mutating func tooLong(_ length: UInt64, into result: inout ChunkResult, out: inout OutputBuffer) {
        invalidLine(.tooLong(length: length, limit: settings.maxLineLength), result.firstLine, &result, &out)
        result.lines = 1
    }

    private mutating func invalidLine(
        _ problem: LineProblem, _ lineNumber: UInt64, _ result: inout ChunkResult, _ out: inout OutputBuffer
    ) {
        result.tally.addInvalid(problem)
        if result.errors.count < settings.maxErrorsShown {
            result.errors.append((lineNumber, problem.description))
        }
        if settings.each {
            // Keep the output in input order.
            flushBlock(&result, &out)
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

    /// Classifies the pending block with the C batch path and counts it; with `--each` (and
    /// `writing`), prints its rows.
    private mutating func flushBlock(_ result: inout ChunkResult, _ out: inout OutputBuffer, writing: Bool = true) {
        guard pending > 0 else { return }
        let input = UnsafeBufferPointer(rebasing: codes[0..<pending])
        let output = UnsafeMutableBufferPointer(rebasing: classes[0..<pending])
        table.classify(input, into: output)
        result.tally.add(codes: input, classes: UnsafeBufferPointer(output))
        if settings.each && writing {
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
}

/// The run's totals, fed the chunks' results in input order.
struct RunTotals {
    private(set) var tally: ClassifyTally
    var out: OutputBuffer
    private var errorsShown = 0
    private let io: ErrcatIO
    private let settings: ClassifySettings
    private var progress: ProgressMeter

    init(table: Catalog, settings: ClassifySettings, io: ErrcatIO) {
        tally = ClassifyTally(table: table)
        out = OutputBuffer(descriptor: io.output)
        self.io = io
        self.settings = settings
        progress = ProgressMeter(enabled: settings.progress, descriptor: io.error)
    }

    /// Lines taken so far.
    var lines: UInt64 { tally.lines }

    /// Whether an output write has failed (the run then stops reading).
    var writeFailed: Bool { out.failure != nil }

    /// Takes the next chunk's result: its counts, its invalid lines to report (renumbered from
    /// the lines taken before it) and, with `--each`, its rows (already in `out`, or `rows`).
    mutating func take(_ result: ChunkResult, rows: OutputBuffer? = nil, bytesRead: UInt64) {
        let shift = tally.lines &- (result.firstLine &- 1)
        for (line, text) in result.errors where errorsShown < settings.maxErrorsShown {
            errorsShown += 1
            progress.clear()
            io.printError("errcat classify: line \(line &+ shift): \(text)")
        }
        tally.add(result.tally)
        if let rows { rows.bytes.withUnsafeBytes { out.write(raw: $0) } }
        progress.update(lines: tally.lines, bytes: bytesRead)
    }

    /// Erases the progress line.
    mutating func finish() {
        progress.clear()
    }
}

/// One run over one input.
struct ClassifyRun {
    let table: Catalog
    let describer: CodeDescriber
    let settings: ClassifySettings
    let io: ErrcatIO

    /// Reads and classifies every line of `descriptor` into `totals`.
    /// - Returns: nil when the input was read to its end or a write failed (see
    ///   `totals.writeFailed`), or the errno of a failed read.
    func consume(descriptor: Int32, into totals: inout RunTotals) -> Int32? {
        var reader = ChunkReader(descriptor: descriptor, maxLineLength: settings.maxLineLength)
        defer { reader.close() }
        let outcome: Int32?
        if settings.jobs <= 1 {
            outcome = consumeHere(&reader, &totals)
        } else {
            let parallel = ParallelClassify(run: self, totals: totals)
            outcome = parallel.run(&reader)
            totals = parallel.totals
        }
        totals.finish()
        return outcome
    }

    /// Classifies chunk after chunk on this thread.
    private func consumeHere(_ reader: inout ChunkReader, _ totals: inout RunTotals) -> Int32? {
        var buffer = ChunkBuffer(size: settings.chunkSize)
        var classifier = ChunkClassifier(table: table, describer: describer, settings: settings)
        var result = ChunkResult(table: table)
        defer {
            buffer.free()
            classifier.free()
        }
        while !totals.writeFailed {
            result.reset(firstLine: totals.lines + 1)
            switch reader.next(into: &buffer) {
            case .lines: classifier.classify(buffer.lines, into: &result, out: &totals.out)
            case .tooLong(let length): classifier.tooLong(length, into: &result, out: &totals.out)
            case .end: return nil
            case .failure(let error): return error
            }
            totals.take(result, bytesRead: reader.bytesRead)
        }
        return nil
    }
}

/// Classifies chunks on `settings.jobs` threads while the calling thread reads the input; the
/// results are taken in input order by whichever thread finishes the next one due.
///
/// `@unchecked Sendable`, justified: every stored `var` and every slot's `states` element is read
/// and written only with `mutex` held. A slot's other parts (`buffers`, `chunks`, `results`,
/// `rows`, `bytesRead`, each in its own allocation) belong to exactly one thread at a time, as
/// the slot's state says: `free`: the reader (cutting a chunk into it); `filled`: nobody
/// (queued); `working`: the worker that took it; `done`: nobody, until the thread that set
/// `taking` reads it; it is `free` again only after that thread is done with it. `totals` is
/// touched only by the thread that set `taking` (and by the reader after every worker has
/// ended). `run` and the slot count are constants.
final class ParallelClassify: @unchecked Sendable {
    private enum State { case free, filled, working, done }

    private let run: ClassifyRun
    private(set) var totals: RunTotals
    /// The slots, allocated once: a chunk `k` uses slot `k % slotCount`. Each part of a slot is
    /// its own allocation, so that one thread's access to one part never overlaps another's.
    private let slotCount: Int
    private let states: UnsafeMutablePointer<State>
    private let buffers: UnsafeMutablePointer<ChunkBuffer>
    private let chunks: UnsafeMutablePointer<ChunkReader.Chunk>
    private let results: UnsafeMutablePointer<ChunkResult>
    private let rows: UnsafeMutablePointer<OutputBuffer>
    /// Input bytes read when the slot's chunk was cut (for the progress line).
    private let bytesRead: UnsafeMutablePointer<UInt64>
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let workReady = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let slotFreed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Chunks queued so far; the next to take; the next whose result is due.
    private var submitted = 0
    private var nextToWork = 0
    private var nextToTake = 0
    /// Set when a thread is taking results, so only one does, in order.
    private var taking = false
    /// The reader has queued its last chunk.
    private var inputDone = false
    /// A write failed: chunks still queued are skipped.
    private var stopped = false

    init(run: ClassifyRun, totals: RunTotals) {
        self.run = run
        self.totals = totals
        slotCount = max(2 * run.settings.jobs, 2)
        states = .allocate(capacity: slotCount)
        states.initialize(repeating: .free, count: slotCount)
        buffers = .allocate(capacity: slotCount)
        chunks = .allocate(capacity: slotCount)
        chunks.initialize(repeating: .end, count: slotCount)
        results = .allocate(capacity: slotCount)
        rows = .allocate(capacity: slotCount)
        bytesRead = .allocate(capacity: slotCount)
        bytesRead.initialize(repeating: 0, count: slotCount)
        for index in 0..<slotCount {
            (buffers + index).initialize(to: ChunkBuffer(size: run.settings.chunkSize))
            (results + index).initialize(to: ChunkResult(table: run.table))
            (rows + index).initialize(to: OutputBuffer(descriptor: -1, threshold: 0))
        }
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(workReady, nil)
        pthread_cond_init(slotFreed, nil)
    }

    deinit {
        for index in 0..<slotCount { buffers[index].free() }
        for part in [
            UnsafeMutableRawPointer(states), UnsafeMutableRawPointer(chunks), UnsafeMutableRawPointer(bytesRead),
        ] {
            part.deallocate()
        }
        buffers.deinitialize(count: slotCount)
        buffers.deallocate()
        results.deinitialize(count: slotCount)
        results.deallocate()
        rows.deinitialize(count: slotCount)
        rows.deallocate()
        pthread_cond_destroy(slotFreed)
        pthread_cond_destroy(workReady)
        pthread_mutex_destroy(mutex)
        slotFreed.deallocate()
        workReady.deallocate()
        mutex.deallocate()
    }

    /// Reads the input into chunks for the workers until it ends; returns when every chunk's
    /// result has been taken. Returns the errno of a failed read, if any.
    func run(_ reader: inout ChunkReader) -> Int32? {
        var threads: [pthread_t] = []
        for _ in 0..<run.settings.jobs {
            let context = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(
                &thread, nil,
                { context in
                    let coordinator = Unmanaged<ParallelClassify>.fromOpaque(context!).takeRetainedValue()
                    coordinator.work()
                    return nil
                }, context)
            if status == 0 {
                threads.append(thread)
            } else {
                Unmanaged<ParallelClassify>.fromOpaque(context).release()
            }
        }
        if threads.isEmpty {
            // No thread could be started: classify here, one chunk at a time.
            stopAndJoin(threads)
            return classifyHere(&reader)
        }
        var failure: Int32? = nil
        var lineCount: UInt64 = 0
        let numbered = run.settings.each
        var index = 0
        reading: while true {
            pthread_mutex_lock(mutex)
            while states[index % slotCount] != .free && !stopped { pthread_cond_wait(slotFreed, mutex) }
            let stop = stopped
            pthread_mutex_unlock(mutex)
            if stop { break }
            let slot = index % slotCount
            let chunk = reader.next(into: &buffers[slot])
            switch chunk {
            case .end: break reading
            case .failure(let error):
                failure = error
                break reading
            case .lines, .tooLong: break
            }
            // `--each` rows carry line numbers, so a chunk must know where it starts.
            let first = lineCount + 1
            if numbered {
                lineCount += chunk == .lines ? Self.countLines(buffers[slot].lines) : 1
            }
            chunks[slot] = chunk
            results[slot].reset(firstLine: numbered ? first : 1)
            bytesRead[slot] = reader.bytesRead
            pthread_mutex_lock(mutex)
            states[slot] = .filled
            submitted += 1
            pthread_cond_signal(workReady)
            pthread_mutex_unlock(mutex)
            index += 1
        }
        pthread_mutex_lock(mutex)
        inputDone = true
        pthread_cond_broadcast(workReady)
        pthread_mutex_unlock(mutex)
        stopAndJoin(threads)
        return failure
    }

    /// Waits for every thread to end (after the last chunk was queued).
    private func stopAndJoin(_ threads: [pthread_t]) {
        pthread_mutex_lock(mutex)
        inputDone = true
        pthread_cond_broadcast(workReady)
        pthread_mutex_unlock(mutex)
        for thread in threads { pthread_join(thread, nil) }
    }

    /// The fallback when no worker thread starts.
    private func classifyHere(_ reader: inout ChunkReader) -> Int32? {
        var classifier = ChunkClassifier(table: run.table, describer: run.describer, settings: run.settings)
        defer { classifier.free() }
        while !totals.writeFailed {
            results[0].reset(firstLine: totals.lines + 1)
            switch reader.next(into: &buffers[0]) {
            case .lines: classifier.classify(buffers[0].lines, into: &results[0], out: &totals.out)
            case .tooLong(let length): classifier.tooLong(length, into: &results[0], out: &totals.out)
            case .end: return nil
            case .failure(let error): return error
            }
            totals.take(results[0], bytesRead: reader.bytesRead)
        }
        return nil
    }

    /// The lines in a chunk: its newlines, plus a last line without one.
    private static func countLines(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        var lines: UInt64 = 0
        var start = 0
        while start < bytes.count, let newline = memchr(base + start, 0x0A, bytes.count - start) {
            lines += 1
            start = base.distance(to: UnsafeRawPointer(newline)) + 1
        }
        return start < bytes.count ? lines + 1 : lines
    }

    /// A worker thread: takes queued chunks in order, classifies them, and takes the results
    /// that are due.
    private func work() {
        var classifier = ChunkClassifier(table: run.table, describer: run.describer, settings: run.settings)
        defer { classifier.free() }
        pthread_mutex_lock(mutex)
        while true {
            while nextToWork == submitted && !inputDone { pthread_cond_wait(workReady, mutex) }
            if nextToWork == submitted { break }
            let slot = nextToWork % slotCount
            nextToWork += 1
            states[slot] = .working
            let skip = stopped
            pthread_mutex_unlock(mutex)
            if !skip {
                rows[slot] = OutputBuffer(descriptor: -1, threshold: run.settings.each ? .max : 0)
                switch chunks[slot] {
                case .lines:
                    classifier.classify(buffers[slot].lines, into: &results[slot], out: &rows[slot])
                case .tooLong(let length):
                    classifier.tooLong(length, into: &results[slot], out: &rows[slot])
                case .end, .failure: break
                }
            }
            pthread_mutex_lock(mutex)
            states[slot] = .done
            takeDueResults()
        }
        pthread_mutex_unlock(mutex)
    }

    /// Takes every result that is due, in order, unless another thread is doing so (it will take
    /// these too). Called and returns with `mutex` held; releases it while writing.
    private func takeDueResults() {
        guard !taking else { return }
        taking = true
        while states[nextToTake % slotCount] == .done && nextToTake < submitted {
            let slot = nextToTake % slotCount
            let skip = stopped
            pthread_mutex_unlock(mutex)
            if !skip {
                totals.take(results[slot], rows: run.settings.each ? rows[slot] : nil, bytesRead: bytesRead[slot])
                rows[slot] = OutputBuffer(descriptor: -1, threshold: 0)
            }
            let failed = totals.writeFailed
            pthread_mutex_lock(mutex)
            if failed { stopped = true }
            states[slot] = .free
            nextToTake += 1
            pthread_cond_broadcast(slotFreed)
        }
        taking = false
    }
}
