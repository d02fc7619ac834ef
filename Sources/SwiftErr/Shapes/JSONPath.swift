import SwiftErrCore

/// A path of ``ShapeDefinition/PathStep``s with its keys and compared values as UTF-8 bytes, made
/// once for looking up many documents (``JSONPathLookup/find(_:resuming:trail:)``).
package struct JSONPath: Sendable, Hashable {
    /// One step, its strings as bytes.
    package enum Step: Sendable, Hashable {
        /// The value of an object's first member with this key.
        case key([UInt8])
        /// An array's element at this position.
        case index(Int)
        /// An array's first element that is an object whose member `key` is the string `value`.
        case firstWhere(key: [UInt8], value: [UInt8])
    }

    /// The steps, outermost first.
    package let steps: [Step]

    /// The path of `steps`.
    package init(_ steps: [ShapeDefinition.PathStep]) {
        self.steps = steps.map { step in
            switch step {
            case .key(let key): return .key(Array(key.utf8))
            case .index(let index): return .index(index)
            case .firstWhere(let key, let value): return .firstWhere(key: Array(key.utf8), value: Array(value.utf8))
            }
        }
    }

    /// How many leading steps this path and `other` have in common.
    package func sharedSteps(with other: JSONPath) -> Int {
        zip(steps, other.steps).prefix { $0 == $1 }.count
    }
}
