/// A raw code with its C classification and its typed outcome for one module.
@frozen
public struct ClassifiedCode<Code: ModuleCode>: Sendable, Hashable {
    /// The raw code as received.
    public let code: Int64
    /// The C core's classification of the code.
    public let classification: Classification
    /// What the code means to `Code`'s module.
    public let outcome: CodeOutcome<Code>

    /// Creates a classified code.
    /// - Parameters:
    ///   - code: The raw code.
    ///   - classification: Its classification.
    ///   - outcome: Its typed outcome.
    @inlinable
    public init(code: Int64, classification: Classification, outcome: CodeOutcome<Code>) {
        self.code = code
        self.classification = classification
        self.outcome = outcome
    }

    /// The entry's flags (empty for unknown and unrecognised codes).
    @inlinable
    public var flags: CodeFlags { classification.flags }

    /// Whether the code is the success code.
    @inlinable
    public var isSuccess: Bool {
        if case .success = outcome { return true }
        return false
    }
}
