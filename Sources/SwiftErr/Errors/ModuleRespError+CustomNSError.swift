import Foundation

extension ModuleRespError: CustomNSError {
    /// `"SwiftErr.<moduleName>"`, e.g. `"SwiftErr.studyGroup"`: one domain per module.
    public static var errorDomain: String {
        "SwiftErr.\(Code.moduleName)"
    }

    /// The server's raw code, clamped to `Int`'s range (only narrower than `Int64` on 32-bit
    /// platforms), also for an unrecognised module code. Failures that carry no server code use
    /// fixed values: the HTTP status for
    /// ``unacceptableStatus(_:)-enum.case``, and `-1` (transport), `-2` (cancelled), `-3` (invalid
    /// envelope), `-4` (decoding), `-5` (invalid catalog), `-6` (stopped by the user), `-7`
    /// (re-authentication failed) and `-8` (refused by the upstream's protection).
    public var errorCode: Int {
        switch self {
        case .base(let answer): return Int(clamping: answer.value.rawValue)
        case .module(let answer): return Int(clamping: answer.value.code)
        case .unexpectedCode(let answer): return Int(clamping: answer.value)
        case .transportFailed: return -1
        case .cancelled: return -2
        case .unacceptableStatus(let status): return status.statusCode
        case .invalidEnvelope: return -3
        case .decodingFailed: return -4
        case .invalidCatalog: return -5
        case .stoppedByUser: return -6
        case .reauthenticationFailed: return -7
        case .refused: return -8
        }
    }

    /// The user info `NSError` bridging sees. It carries the description, failure reason and
    /// recovery suggestion under the `NSLocalized…Key`s (without
    /// `NSLocalizedDescriptionKey`, `localizedDescription` is generic on Linux), the underlying
    /// error under `NSUnderlyingErrorKey`, and the keys of ``ModuleRespErrorKeys`` (the server's
    /// message among them, whatever ``ServerMessage/isShownInDescriptions`` says).
    public var errorUserInfo: [String: Any] {
        let language = Language.current
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: errorDescription(in: language),
            NSLocalizedFailureReasonErrorKey: failureReason(in: language),
            ModuleRespErrorKeys.module: Code.moduleName,
        ]
        if let suggestion = recoverySuggestion(in: language) {
            info[NSLocalizedRecoverySuggestionErrorKey] = suggestion
        }
        if let raw = rawCode {
            info[ModuleRespErrorKeys.rawCode] = NSNumber(value: raw)
        }
        if let message = serverMessage {
            info[ModuleRespErrorKeys.serverMessage] = message
        }
        if let underlying = underlyingError {
            info[NSUnderlyingErrorKey] = underlying as NSError
        }
        return info
    }
}

/// The `userInfo` keys ``ModuleRespError`` adds to its `NSError` form.
public enum ModuleRespErrorKeys {
    /// The server's raw code as an `NSNumber` (an `Int64`), when there is one.
    public static let rawCode = "SwiftErrRawCode"
    /// The module's name (`ModuleCode.moduleName`).
    public static let module = "SwiftErrModule"
    /// The server's message (``ModuleRespError/serverMessage``, cleaned), when there is one.
    public static let serverMessage = "SwiftErrServerMessage"
}
