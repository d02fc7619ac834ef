/// Turns one foreign error type into a module's ``ModuleRespError``, or ignores it.
///
/// One adapter per third-party error type; it answers `nil` to ignore an error deliberately.
/// Adapters are collected in an ``ErrorAdapterRegistry``, whose single
/// ``ErrorAdapterRegistry/handle(_:)`` replaces a growing chain of `if let … as? …` casts.
///
/// <!-- listing: context=app -->
/// ```swift
/// struct MoyaErrorAdapter: ErrorAdapter {
///     func adapt(_ error: MoyaError) -> ModuleRespError<StudyGroupCode>? {
///         if case .statusCode(let response) = error { return .unacceptableStatus(response.statusCode) }
///         return .transportFailed(underlying: error)
///     }
/// }
/// ```
public protocol ErrorAdapter<Code>: Sendable {
    /// The foreign error type this adapter understands.
    associatedtype Foreign: Error
    /// The module whose error type the adapter produces.
    associatedtype Code: ModuleCode

    /// A name for diagnostics (which adapter answered); the type's name by default.
    var name: String { get }

    /// Converts one foreign error.
    /// - Parameter error: The foreign error.
    /// - Returns: The module's error, or `nil` to ignore this error deliberately (the registry
    ///   reports it as ``AdaptedError/ignored(_:by:)``, it is never silently dropped).
    func adapt(_ error: Foreign) -> ModuleRespError<Code>?
}

extension ErrorAdapter {
    /// The adapter type's name, e.g. `"URLErrorAdapter<StudyGroupCode>"`.
    public var name: String { String(describing: Self.self) }
}

/// An adapter made from a closure, for one-off conversions.
public struct ClosureErrorAdapter<Foreign: Error, Code: ModuleCode>: ErrorAdapter {
    /// The adapter's name.
    public let name: String
    private let transform: @Sendable (Foreign) -> ModuleRespError<Code>?

    /// Creates an adapter from a closure.
    /// - Parameters:
    ///   - foreign: The foreign error type.
    ///   - code: The module the errors are for.
    ///   - name: A name for diagnostics.
    ///   - transform: The conversion; return `nil` to ignore an error.
    public init(
        _ foreign: Foreign.Type, for code: Code.Type = Code.self, name: String,
        _ transform: @escaping @Sendable (Foreign) -> ModuleRespError<Code>?
    ) {
        self.name = name
        self.transform = transform
    }

    /// Runs the closure.
    /// - Parameter error: The foreign error.
    /// - Returns: The closure's answer.
    public func adapt(_ error: Foreign) -> ModuleRespError<Code>? {
        transform(error)
    }
}
