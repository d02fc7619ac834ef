// A JSON document built from a shape's paths, for the lines `errcat sample` writes in a shape.

import SwiftErr

/// A JSON document built from a shape's paths: each value is put where its path says, creating
/// the objects and arrays on the way (an array's element found by a member's value gets that
/// member). A place no value is put in is written as `null`.
indirect enum SampleNode {
    case object([(key: String, value: SampleNode)])
    case array([SampleNode])
    /// A value as JSON text.
    case value([UInt8])
    case empty

    /// Puts `value` (JSON text) at `steps`; false when the path meets a value already there or a
    /// container of the other kind.
    mutating func insert(_ steps: ArraySlice<ShapeDefinition.PathStep>, _ value: [UInt8]) -> Bool {
        guard let step = steps.first else {
            guard case .empty = self else { return false }
            self = .value(value)
            return true
        }
        let rest = steps.dropFirst()
        switch step {
        case .key(let key):
            if case .empty = self { self = .object([]) }
            guard case .object(var members) = self else { return false }
            let index =
                members.firstIndex { $0.key == key }
                ?? {
                    members.append((key, .empty))
                    return members.count - 1
                }()
            guard members[index].value.insert(rest, value) else { return false }
            self = .object(members)
        case .index(let position):
            if case .empty = self { self = .array([]) }
            guard case .array(var elements) = self else { return false }
            while elements.count <= position { elements.append(.empty) }
            guard elements[position].insert(rest, value) else { return false }
            self = .array(elements)
        case .firstWhere(let key, let equals):
            if case .empty = self { self = .array([]) }
            guard case .array(var elements) = self else { return false }
            let marker = SampleNode.json(string: equals)
            let index =
                elements.firstIndex { element in
                    guard case .object(let members) = element else { return false }
                    return members.contains { member in
                        if member.key == key, case .value(let bytes) = member.value { return bytes == marker }
                        return false
                    }
                }
                ?? {
                    elements.append(.object([(key, .value(marker))]))
                    return elements.count - 1
                }()
            guard elements[index].insert(rest, value) else { return false }
            self = .array(elements)
        }
        return true
    }

    /// `text` as JSON text.
    static func json(string text: String) -> [UInt8] {
        var out = OutputBuffer(descriptor: -1, threshold: Int.max)
        out.write(jsonString: text)
        return out.bytes
    }

    /// The document as JSON text.
    func write(into out: inout OutputBuffer) {
        switch self {
        case .object(let members):
            out.write(byte: UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.write(byte: UInt8(ascii: ",")) }
                out.write(jsonKey: member.key)
                member.value.write(into: &out)
            }
            out.write(byte: UInt8(ascii: "}"))
        case .array(let elements):
            out.write(byte: UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.write(byte: UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.write(byte: UInt8(ascii: "]"))
        case .value(let bytes):
            bytes.withUnsafeBytes { out.write(raw: $0) }
        case .empty:
            out.write("null")
        }
    }
}

extension SampleNode {
    /// Whether the document has a value (or container) at `steps`.
    func has(_ steps: ArraySlice<ShapeDefinition.PathStep>) -> Bool {
        guard let step = steps.first else {
            if case .empty = self { return false }
            return true
        }
        switch (step, self) {
        case (.key(let key), .object(let members)):
            return members.first { $0.key == key }?.value.has(steps.dropFirst()) ?? false
        case (.index(let position), .array(let elements)):
            return position < elements.count && elements[position].has(steps.dropFirst())
        default:
            return false
        }
    }
}
