// A firmware-style client of the SwiftErrCore target and the built-in catalog
// (SwiftErrDefaultCatalog, its static C table linked explicitly), compiled as
// Embedded Swift by scripts/embedded/swift-check.sh and linked (never run)
// with the freestanding C core. Compiling it proves that CErrCore imports
// under Embedded Swift and that SwiftErrCore works from other Embedded Swift
// modules: its generic module-code model (ModuleCode, ModuleClassifier,
// CodeOutcome) is specialised here, where Embedded Swift compiles generic
// code. The @_cdecl entry points are the roots of the check's --gc-sections
// links: firmware_action and firmware_study_group classify through
// SwiftErrCore only (the classify-only firmware, held to a size budget);
// firmware_module and firmware_tally call the C API directly.

import CErrCore
import CErrDefaultCatalog
import SwiftErrCore
import SwiftErrDefaultCatalog

/// What a device does with a response code.
public enum FirmwareAction: UInt8 {
    /// The request succeeded.
    case proceed
    /// The session is no longer valid (a code flagged re-authenticate, e.g. tokenExpire 11001).
    case signInAgain
    /// Repeating the request may succeed.
    case retry
    /// Anything else: log it and tell the user.
    case report
}

/// Decides what to do with `code` from the built-in catalog's flags alone.
/// - Parameter code: A response code as received.
/// - Returns: The decision for `code`.
public func firmwareDecision(for code: Int64) -> FirmwareAction {
    let classification = Catalog.builtIn.classify(code)
    if classification.tier == .success {
        return .proceed
    }
    if classification.flags.contains(.reauthenticate) {
        return .signInAgain
    }
    if classification.flags.contains(.retryable) {
        return .retry
    }
    return .report
}

/// ``firmwareDecision(for:)`` for C callers.
/// - Parameter code: A response code as received.
/// - Returns: The `FirmwareAction` raw value.
@_cdecl("firmware_action")
public func firmwareAction(_ code: Int64) -> UInt8 {
    firmwareDecision(for: code).rawValue
}

/// What a study-group response means, through the typed module model.
/// - Parameter code: A response code as received from a study-group request.
/// - Returns: `0` for success, `1` for a base code, `2` for a code unexpected in this module, `3` when
///   the catalog is unusable, `4` for an unlisted code in the module's range, and the code itself
///   (`11210005` ...) for one of the codes the module lists.
@_cdecl("firmware_study_group")
public func firmwareStudyGroup(_ code: Int64) -> Int32 {
    switch StudyGroupCode.classify(code) {
    case .success:
        return 0
    case .base:
        return 1
    case .unexpected:
        return 2
    case .invalidCatalog:
        return 3
    case .module(.other):
        return 4
    case .module(let value):
        return Int32(truncatingIfNeeded: value.code)
    }
}

/// The module id a code belongs to in the built-in catalog, or 0.
/// - Parameter code: A response code as received.
/// - Returns: The module id (1 ... 7), or 0 for base-tier, success and unknown codes.
@_cdecl("firmware_module")
public func firmwareModule(_ code: Int64) -> UInt16 {
    errcore_class_module(errcore_classify(errcore_default_table(), code))
}

/// Counts the classes of a buffer of codes in one pass, as a device would for telemetry,
/// straight through the C API.
/// - Parameters:
///   - codes: The codes received since the last report.
///   - count: How many there are.
///   - tally: Receives the counts (added to what it holds).
/// - Returns: `true` when the core accepted the arguments.
@_cdecl("firmware_tally")
public func firmwareTally(
    _ codes: UnsafePointer<Int64>?, _ count: Int,
    _ tally: UnsafeMutablePointer<errcore_tally>?
) -> Bool {
    errcore_tally_codes(errcore_default_table(), codes, count, tally, nil) == ERRCORE_OK
}
