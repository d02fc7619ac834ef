/// Command-line options of the form `--name value`, for the two executables.
public struct Options: Sendable {
    private var values: [String: String] = [:]

    /// A bad command line: what is wrong, for the usage message.
    public struct Problem: Error, CustomStringConvertible {
        /// What is wrong.
        public let description: String

        /// Creates a problem.
        /// - Parameter description: What is wrong.
        public init(description: String) {
            self.description = description
        }
    }

    /// Reads `--name value` pairs.
    /// - Parameters:
    ///   - arguments: The arguments, without the program's name.
    ///   - known: The option names accepted, without `--`.
    /// - Throws: ``Problem`` for an unknown option or one without a value.
    public init(_ arguments: [String], known: Set<String>) throws(Problem) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--"), known.contains(String(argument.dropFirst(2))) else {
                throw Problem(description: "unknown option '\(argument)'")
            }
            guard index + 1 < arguments.count else { throw Problem(description: "'\(argument)' needs a value") }
            values[String(argument.dropFirst(2))] = arguments[index + 1]
            index += 2
        }
    }

    /// An option's value, or `fallback` when it was not given.
    public func string(_ name: String, default fallback: String) -> String {
        values[name] ?? fallback
    }

    /// An option's value as an integer, or `fallback` when it was not given.
    /// - Throws: ``Problem`` when the value is not an integer.
    public func int(_ name: String, default fallback: Int) throws(Problem) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { throw Problem(description: "--\(name) needs an integer, not '\(text)'") }
        return value
    }

    /// An option's value as an integer within `range`, or `fallback` when it was not given.
    /// - Throws: ``Problem`` when the value is not an integer or lies outside `range`.
    public func int(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(Problem) -> Int {
        let value = try int(name, default: fallback)
        guard range.contains(value) else {
            throw Problem(description: "--\(name) is between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
        return value
    }

    /// An `on`/`off` option, or `fallback` when it was not given.
    /// - Throws: ``Problem`` for any other value.
    public func flag(_ name: String, default fallback: Bool) throws(Problem) -> Bool {
        switch values[name] {
        case nil: return fallback
        case "on": return true
        case "off": return false
        case let other?: throw Problem(description: "--\(name) is 'on' or 'off', not '\(other)'")
        }
    }
}
