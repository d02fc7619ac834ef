// Context "tests": a listing that is the body of a test (Swift Testing), with SwiftErrTesting's
// doubles.
import Foundation
import SwiftErrTesting
import Testing

@Test func example() async throws {
    // LISTING
}
