// Hand-written command-line parsing: options, flags, positionals, `--`, `--name=value`.

/// A command-line mistake: reported with the command's usage, exit status 2.
struct UsageError: Error {
    var message: String
}

/// One option a command accepts.
struct OptionSpec {
    /// Spellings, e.g. ["--lang"] or ["-n", "--count"].
    var names: [String]
    /// True when the option takes a value (`--lang en` or `--lang=en`).
    var takesValue: Bool

    /// Options that take a value, each given as its spellings separated by spaces: `"--jobs -j"`.
    static func values(_ options: String...) -> [OptionSpec] {
        options.map { OptionSpec(names: $0.split(separator: " ").map(String.init), takesValue: true) }
    }

    /// Options that take no value (flags), spelled as in ``values(_:)``.
    static func flags(_ options: String...) -> [OptionSpec] {
        options.map { OptionSpec(names: $0.split(separator: " ").map(String.init), takesValue: false) }
    }
}

/// The result of parsing: flags seen, option values (by first spelling) and positionals.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    /// Every value of each option, in the order given (for options that may be repeated).
    var allValues: [String: [String]] = [:]
    var positionals: [String] = []
    var wantsHelp = false

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ option: String) -> String? { values[option] }
    /// Every value given to `option`, in order (empty when absent).
    func values(_ option: String) -> [String] { allValues[option] ?? [] }
}

/// Parses `arguments` against `options`.
///
/// `-h`/`--help` set `wantsHelp`. `--` ends options. `-` alone and tokens that look like
/// integers (`-5`) are positionals, so negative codes need no `--`. An option given twice
/// keeps its last value in `values`; `allValues` keeps every one.
/// - Throws: `UsageError` for an unknown option, a missing value, or a value given to a flag.
func parseArguments(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") || looksLikeInteger(argument) {
            result.positionals.append(argument)
            continue
        }
        if argument == "--" {
            optionsEnded = true
            continue
        }
        if argument == "-h" || argument == "--help" {
            result.wantsHelp = true
            continue
        }
        var name = argument
        var inlineValue: String? = nil
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        guard let spec = options.first(where: { $0.names.contains(name) }) else {
            throw UsageError(message: "unknown option '\(name)'")
        }
        let key = spec.names[0]
        if spec.takesValue {
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "option '\(name)' needs a value")
            }
            result.values[key] = value
            result.allValues[key, default: []].append(value)
        } else {
            if inlineValue != nil {
                throw UsageError(message: "option '\(name)' takes no value")
            }
            result.flags.insert(key)
        }
    }
    return result
}

/// True for `-?[0-9]+`-like tokens (so `-11001` is a code, not an option).
func looksLikeInteger(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count >= 2, bytes[0] == UInt8(ascii: "-") else { return false }
    return bytes[1] >= UInt8(ascii: "0") && bytes[1] <= UInt8(ascii: "9")
}

/// Parses a whole decimal Int64 (optional sign, digits only, no spaces).
func parseInt64(_ text: String) -> Int64? {
    Array(text.utf8).withUnsafeBytes { raw in
        switch IntegerScan.scan(raw) {
        case .value(let value): return value
        default: return nil
        }
    }
}

/// How counts and sizes are written on errcat's command lines, for help texts and usage errors.
let countRule =
    "a whole number (1000, 1_000_000) or one with a suffix K, M or G, either case, meaning 2^10, 2^20 or 2^30 (16M = 16,777,216)"

/// Parses a count or size: decimal digits, optionally grouped with `_`, and an optional suffix
/// `K`, `M` or `G` (either case) that multiplies by 2^10, 2^20 or 2^30. One rule for every
/// count and size errcat takes: `1000`, `1_000_000`, `64K` (65,536), `16M` (16,777,216).
/// - Returns: The value, or `nil` when `text` is not of that form or overflows `UInt64`.
func parseCount(_ text: String) -> UInt64? {
    var digits = text.filter { $0 != "_" }
    var multiplier: UInt64 = 1
    switch digits.last {
    case "k", "K": multiplier = 1 << 10
    case "m", "M": multiplier = 1 << 20
    case "g", "G": multiplier = 1 << 30
    default: break
    }
    if multiplier != 1 { digits.removeLast() }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt64(digits) else {
        return nil
    }
    let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : product
}
