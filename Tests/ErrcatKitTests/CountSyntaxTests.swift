// One rule for every count and size errcat takes: K, M and G are binary (2^10, 2^20, 2^30),
// so the documented default "16M" of --max-line-bytes is what `--max-line-bytes 16M` means.

import Foundation
import Testing

@testable import ErrcatKit

@Suite("errcat counts and sizes")
struct CountSyntaxTests {
    @Test("one rule for counts and sizes: K, M, G are 2^10, 2^20, 2^30; 16M is the documented 16,777,216")
    func countSuffixes() {
        #expect(parseCount("16M") == 16_777_216)
        #expect(parseCount("16m") == 16 << 20)
        #expect(parseCount("1K") == 1024)
        #expect(parseCount("64k") == 65_536)
        #expect(parseCount("2G") == 2 << 30)
        #expect(parseCount("1_000_000") == 1_000_000)
        #expect(parseCount("0") == 0)
        for bad in ["", "M", "16MB", "16MiB", "1.5M", "-1", " 1", "16T", "99999999999999999999", "17179869184G"] {
            #expect(parseCount(bad) == nil, "\(bad)")
        }
    }

    @Test("sample 1K writes 1,024 lines")
    func sampleCount() throws {
        let result = try ErrcatRunner.run(["sample", "1K", "--format", "codes"])
        #expect(result.status == 0)
        #expect(result.lines.count == 1024)
    }
}
