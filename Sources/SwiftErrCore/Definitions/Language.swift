import CErrCore

/// The languages catalog messages are written in.
///
/// Every entry has an English message; a Simplified Chinese one is optional and, when it
/// is missing, lookups in ``simplifiedChinese`` fall back to English.
public enum Language: Sendable, Hashable, CaseIterable {
    /// English. The corresponding C value is `ERRCORE_LANG_EN`.
    case english
    /// Simplified Chinese (`zh-Hans`). The corresponding C value is `ERRCORE_LANG_ZH_HANS`.
    case simplifiedChinese

    /// The C core's value for this language.
    @inlinable
    package var cValue: errcore_lang {
        switch self {
        case .english: return ERRCORE_LANG_EN
        case .simplifiedChinese: return ERRCORE_LANG_ZH_HANS
        }
    }

    /// The language tag used in catalog files: `"en"` or `"zh-Hans"`.
    public var tag: String {
        switch self {
        case .english: return "en"
        case .simplifiedChinese: return "zh-Hans"
        }
    }

    /// The language whose ``tag`` is `tag` (`"en"` or `"zh-Hans"`, ASCII case-insensitive), or
    /// `nil` for any other text: for settings and command-line options, where an unknown value is
    /// a mistake to report rather than a reason to fall back.
    /// - Parameter tag: A catalog language tag.
    public init?(tag: String) {
        guard let match = Language.allCases.first(where: { $0.tag.lowercased() == tag.lowercased() }) else {
            return nil
        }
        self = match
    }

    /// Chooses the language for a BCP 47 language identifier such as `"zh-Hans-CN"`,
    /// `"zh_CN"` or `"en-US"`.
    ///
    /// Any Chinese identifier except the Traditional script or regions (`Hant`, `TW`, `HK`,
    /// `MO`) selects ``simplifiedChinese``; everything else selects ``english``, the fallback.
    /// Matching is ASCII case-insensitive.
    /// - Parameter identifier: A locale or language identifier.
    /// - Returns: The catalog language to use for it.
    public static func matching(identifier: String) -> Language {
        var parts: [[UInt8]] = [[]]
        for byte in identifier.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "@"), UInt8(ascii: "."):
                parts.append([])
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                parts[parts.count - 1].append(byte | 0x20)
            default:
                parts[parts.count - 1].append(byte)
            }
        }
        guard parts[0] == Array("zh".utf8) else { return .english }
        let traditional: [[UInt8]] = [Array("hant".utf8), Array("tw".utf8), Array("hk".utf8), Array("mo".utf8)]
        for part in parts.dropFirst() where traditional.contains(part) {
            return .english
        }
        return .simplifiedChinese
    }
}
