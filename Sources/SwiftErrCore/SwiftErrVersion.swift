import CErrCore

/// The version of SwiftErr.
///
/// The Swift package and its C core share one version, written once in the C header
/// `errcore_version.h`: these values are its `ERRCORE_VERSION_*` macros, as this module was
/// compiled. Versions follow semantic versioning. Before 1.0.0 a change that breaks the API or
/// ABI raises ``minor`` and an addition or a fix raises ``patch``; from 1.0.0 on a breaking
/// change raises ``major``, an addition ``minor`` and a fix ``patch``. `CHANGELOG.md` lists
/// what each version changed.
///
/// C code linked against a shared `libcerrcore` compares the version of the library it runs
/// with, `errcore_version()`, with the one of its headers; in a Swift package the C core is
/// compiled with the Swift modules, so the two are always the same.
///
/// <!-- listing: context=app -->
/// ```swift
/// print("SwiftErr \(SwiftErrVersion.string)")       // prints "SwiftErr 0.4.0"
/// if SwiftErrVersion.number >= 3000 { useFeature() }  // 0.3.0 or later
/// ```
public enum SwiftErrVersion {
    /// The major version: 0 until the API is declared stable.
    ///
    /// The corresponding C macro is `ERRCORE_VERSION_MAJOR`.
    public static var major: Int { Int(ERRCORE_VERSION_MAJOR) }

    /// The minor version.
    ///
    /// The corresponding C macro is `ERRCORE_VERSION_MINOR`.
    public static var minor: Int { Int(ERRCORE_VERSION_MINOR) }

    /// The patch version.
    ///
    /// The corresponding C macro is `ERRCORE_VERSION_PATCH`.
    public static var patch: Int { Int(ERRCORE_VERSION_PATCH) }

    /// The version as one integer, `major * 1_000_000 + minor * 1_000 + patch`
    /// (3000 for 0.3.0), so that versions compare as integers.
    ///
    /// The corresponding C macro is `ERRCORE_VERSION_NUMBER`, and the C function
    /// `errcore_version()` returns the same number for the C core as it was built.
    public static var number: Int { Int(ERRCORE_VERSION_NUMBER) }

    /// The version as text, `"major.minor.patch"`, for example `"0.3.0"`.
    ///
    /// The corresponding C macro is `ERRCORE_VERSION_STRING`.
    public static var string: String { ERRCORE_VERSION_STRING }
}
