/// A setting of a ``RetryBudget``, a ``CircuitBreaker`` or an ``AdaptiveThrottle`` is out of its
/// range: which setting, the value given, and what it must be.
///
/// <!-- listing: context=app -->
/// ```swift
/// do {
///     _ = try CircuitBreaker(failureRatio: 1.5)
/// } catch {
///     print(error)  // prints "CircuitBreaker.failureRatio is 1.5; it must be between 0 and 1"
/// }
/// ```
public struct ResilienceConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting, as `Type.name` (`CircuitBreaker.failureRatio`).
    public let setting: String
    /// The value given, as text.
    public let value: String
    /// What the value must be (`between 0 and 1`).
    public let requirement: String

    /// Creates the error.
    /// - Parameters:
    ///   - setting: The setting, as `Type.name`.
    ///   - value: The value given, as text.
    ///   - requirement: What the value must be.
    public init(setting: String, value: String, requirement: String) {
        self.setting = setting
        self.value = value
        self.requirement = requirement
    }

    /// `CircuitBreaker.failureRatio is 1.5; it must be between 0 and 1`.
    public var description: String {
        "\(setting) is \(value); it must be \(requirement)"
    }
}

/// Checks of configuration values, shared by the three configurations.
enum ResilienceSetting {
    /// The longest duration a window or a break may last: one day.
    static let longest: Duration = .seconds(86_400)

    /// A ratio in `0...1`.
    static func ratio(_ value: Double, _ setting: String) throws(ResilienceConfigurationError) -> Double {
        guard value.isFinite, value >= 0, value <= 1 else {
            throw ResilienceConfigurationError(setting: setting, value: "\(value)", requirement: "between 0 and 1")
        }
        return value
    }

    /// An integer in `range`.
    static func integer(_ value: Int, _ setting: String, in range: ClosedRange<Int>)
        throws(ResilienceConfigurationError)
        -> Int
    {
        guard range.contains(value) else {
            let requirement =
                range.upperBound == Int.max
                ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"
            throw ResilienceConfigurationError(setting: setting, value: "\(value)", requirement: requirement)
        }
        return value
    }

    /// A duration above zero and at most ``longest``, as whole nanoseconds (at least `minimum`).
    static func duration(_ value: Duration, _ setting: String, minimumNanoseconds minimum: Int64 = 1)
        throws(ResilienceConfigurationError) -> Int64
    {
        let nanoseconds = value <= .zero || value > longest ? 0 : Self.nanoseconds(value)
        guard nanoseconds >= minimum else {
            throw ResilienceConfigurationError(
                setting: setting, value: "\(value)",
                requirement: "longer than zero (at least \(minimum) ns) and at most 24 hours")
        }
        return nanoseconds
    }

    /// A duration as whole nanoseconds (for durations within ``longest``).
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
