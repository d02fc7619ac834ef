import CErrCore
import SwiftErrCore
import Testing

/// `SwiftErrVersion` says what the C core it runs with says.
@Suite("SwiftErrVersion")
struct VersionTests {
    @Test("the number equals errcore_version() of the C core")
    func numberMatchesLibrary() {
        #expect(SwiftErrVersion.number == Int(errcore_version()))
    }

    @Test("the string equals errcore_version_string() of the C core")
    func stringMatchesLibrary() {
        #expect(SwiftErrVersion.string == String(cString: errcore_version_string()))
    }

    @Test("number and string are made of major, minor and patch")
    func partsAgree() {
        let (major, minor, patch) = (SwiftErrVersion.major, SwiftErrVersion.minor, SwiftErrVersion.patch)
        #expect(major >= 0 && (0..<1000).contains(minor) && (0..<1000).contains(patch))
        #expect(SwiftErrVersion.number == major * 1_000_000 + minor * 1_000 + patch)
        #expect(SwiftErrVersion.string == "\(major).\(minor).\(patch)")
    }
}
