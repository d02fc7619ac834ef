import SwiftErrCore

/// A path of ``ShapeDefinition/PathStep``s with its keys and compared values as UTF-8 bytes, made
/// once for looking up many documents (``JSONPathLookup/find(_:resuming:trail:)``). The steps'
/// strings lie back to back in one array and each step names its ranges, so that walking a path
/// copies no reference-counted value.
package struct JSONPath: Sendable {
    /// One step, its strings as ranges of ``bytes``.
    package enum Step: Sendable, Hashable {
        /// The value of an object's first member with this key.
        case key(Range<Int>)
        /// An array's element at this position.
        case index(Int)
        /// An array's first element that is an object whose member `key` is the string `value`.
        case firstWhere(key: Range<Int>, value: Range<Int>)
    }

    /// The steps, outermost first.
    package let steps: [Step]
    /// Every step's key and compared value, as UTF-8, back to back.
    package let bytes: [UInt8]

    /// The path of `steps`.
    package init(_ steps: [ShapeDefinition.PathStep]) {
        var bytes: [UInt8] = []
        func add(_ text: String) -> Range<Int> {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return start..<bytes.count
        }
        self.steps = steps.map { step in
            switch step {
            case .key(let key): return .key(add(key))
            case .index(let index): return .index(index)
            case .firstWhere(let key, let value): return .firstWhere(key: add(key), value: add(value))
            }
        }
        self.bytes = bytes
    }

    /// How many leading steps this path and `other` have in common (the same kind, index and
    /// strings).
    package func sharedSteps(with other: JSONPath) -> Int {
        func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool { bytes[a].elementsEqual(other.bytes[b]) }
        return zip(steps, other.steps).prefix { mine, theirs in
            switch (mine, theirs) {
            case (.key(let a), .key(let b)): return same(a, b)
            case (.index(let a), .index(let b)): return a == b
            case (.firstWhere(let a, let x), .firstWhere(let b, let y)): return same(a, b) && same(x, y)
            default: return false
            }
        }.count
    }
}
