import OpenAPIRuntime
import SwiftErr

/// Runs a generated client's operation and throws one typed error, as
/// ``SwiftErr/ResponseClient`` does: the ``SwiftErr/ModuleRespError`` an ``EnvelopeMiddleware`` threw,
/// taken out of the `ClientError` the generated client wraps it in, or any other error mapped by
/// the one mapping of foreign errors (``SwiftErr/ModuleRespError/init(adapting:)``).
///
/// <!-- listing: context=server,openapi -->
/// ```swift
/// do {
///     let output = try await withModuleErrors(StudyGroupCode.self) {
///         try await client.joinClass(body: .json(.init(teamCode: code)))
///     }
/// } catch .module(.wrongTeamCode) {
///     warningLabel.isHidden = false
/// } catch {
///     hud.show(error.localizedDescription)
/// }
/// ```
/// - Parameters:
///   - module: The module the operation belongs to.
///   - operation: The call to the generated client.
/// - Returns: What the operation returned.
/// - Throws: The module's error.
public func withModuleErrors<Output, Code: ModuleCode>(
    _ module: Code.Type, _ operation: () async throws -> Output
) async throws(ModuleRespError<Code>) -> Output {
    do {
        return try await operation()
    } catch {
        throw ModuleRespError(openAPIError: error)
    }
}

extension ModuleRespError {
    /// The module error behind an error a generated client threw: a `ClientError`'s underlying
    /// error when it is one (unwrapped as often as it is nested), mapped by
    /// ``SwiftErr/ModuleRespError/init(adapting:)`` (which keeps a `ModuleRespError<Code>` as it is and
    /// converts another module's).
    /// - Parameter error: The error the generated client threw.
    public init(openAPIError error: any Error) {
        var underlying = error
        while let clientError = underlying as? ClientError {
            underlying = clientError.underlyingError
        }
        self.init(adapting: underlying)
    }
}
