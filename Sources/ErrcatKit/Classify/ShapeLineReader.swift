// One input line of `classify` read in a catalog's shapes: the shape that fits it, the code it
// names (an integer, or a string in a namespace) and its classification, or why none does.

import SwiftErr

/// What a line read in the catalog's shapes gave, or why it could not be read.
enum ShapeLineOutcome {
    case line(ShapeLine)
    case problem(LineProblem)
}

/// A line read in the catalog's shapes.
struct ShapeLine {
    /// The shape that read the code; `nil` for a success that every shape reads alike.
    var shape: String?
    /// The (namespace, string) pair a string code was looked up by (``ShapeReading/stringKey(in:shape:)``).
    var stringKey: (namespace: [UInt8], string: [UInt8])?
    /// The code's classification.
    var classification: Classification
}

/// Reads lines in the JSON shapes of a catalog (or the one `--shape` names).
///
/// Each shape reads the line (``ShapeReading``). The line is in the one shape that finds a code
/// in it (where its code is, or where else it may be); two shapes that both find one make the
/// line ambiguous, reported with their names and never guessed. A line in which no shape finds a
/// code is a failure when a shape's rule says it failed (Slack's `"ok": false` without
/// `"error"`): of the first such shape's default code when it has one, else without a code
/// (unknown); otherwise it is a success. A line that no shape can read is invalid, with the first
/// shape's reason.
struct ShapeLineReader {
    let catalog: Catalog
    /// A reader for each shape, made once: what classifying needs is all a line is read for.
    let readers: [ShapeReader]

    /// A reader for `catalog`'s JSON shapes, or only the one named `only`.
    /// - Returns: `nil` when the catalog has no JSON shape (or none named `only`) that locates a
    ///   code.
    init?(catalog: Catalog, only: String?) {
        let readers = catalog.shapes.compactMap { shape -> ShapeReader? in
            guard shape.kind == .json && (only == nil || shape.name == only) else { return nil }
            return try? ShapeReader(shape)
        }
        guard !readers.isEmpty else { return nil }
        self.catalog = catalog
        self.readers = readers
    }

    /// The name a problem names: the shape's when the reader has only one.
    private var onlyShapeName: String? { readers.count == 1 ? readers[0].name : nil }

    func read(_ line: UnsafeRawBufferPointer) -> ShapeLineOutcome {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .problem(.empty) }
        // The line is checked as JSON once; each shape then only looks its values up.
        do {
            try ShapeReading.validate(line)
        } catch {
            return .problem(.shape(error, onlyShapeName))
        }
        if readers.count == 1 { return readOne(line) }
        var firstFailure: ShapeReading.Failure? = nil
        var found: (index: Int, reading: ShapeReading)? = nil
        var alsoFound: [Int] = []
        var failedWithout: (index: Int, reading: ShapeReading)? = nil
        var readable = false
        for index in readers.indices {
            let reading: ShapeReading
            do {
                reading = try readers[index].read(
                    validated: line, status: nil, successCode: catalog.successCode, parts: .classification)
            } catch {
                if firstFailure == nil { firstFailure = error }
                continue
            }
            readable = true
            if reading.code != nil && !reading.codeIsDefault {
                if found == nil { found = (index, reading) } else { alsoFound.append(index) }
            } else if reading.isFailure && failedWithout == nil {
                failedWithout = (index, reading)
            }
        }
        if let found, !alsoFound.isEmpty {
            return .problem(.ambiguousShapes(([found.index] + alsoFound).map { readers[$0].name }))
        }
        // A code found in the body; else a failure without one (the shape's default code, or unknown).
        if let (index, reading) = found ?? failedWithout { return self.line(readers[index], reading) }
        if readable { return success }
        return .problem(.shape(firstFailure!, onlyShapeName))
    }

    /// ``read(_:)`` with the catalog's one shape (no other to tell it from): the same outcome,
    /// without keeping readings aside.
    private func readOne(_ line: UnsafeRawBufferPointer) -> ShapeLineOutcome {
        let reader = readers[0]
        let reading: ShapeReading
        do {
            reading = try reader.read(
                validated: line, status: nil, successCode: catalog.successCode, parts: .classification)
        } catch {
            return .problem(.shape(error, reader.name))
        }
        // A code (found, or the default of a failure) or a failure without one; else a success.
        return reading.code != nil || reading.isFailure ? self.line(reader, reading) : success
    }

    /// The line `reader` read: its code's classification, with the shape and the string pair.
    private func line(_ reader: ShapeReader, _ reading: ShapeReading) -> ShapeLineOutcome {
        let key = reading.stringKey(in: catalog, namespaceIsCodePrefix: reader.namespaceIsCodePrefix)
        return .line(
            ShapeLine(
                shape: reader.name, stringKey: key, classification: reading.classification(in: catalog, stringKey: key))
        )
    }

    /// A line that no shape reads a code or a failure in.
    private var success: ShapeLineOutcome {
        .line(ShapeLine(shape: nil, stringKey: nil, classification: catalog.classify(catalog.successCode)))
    }
}
