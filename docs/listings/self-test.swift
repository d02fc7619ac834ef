// Context "self-test": what the planted listings of `scripts/docs/listings.py --self-test` use.
import SwiftErr

/// The answer the self-test's correct listing prints.
public func selfTestAnswer() -> Int { 42 }
