import Foundation

/// Runs child processes (errcat, compilers, test programs) from tests without blocking a thread
/// of the concurrency pool.
///
/// `Process.waitUntilExit()` blocks its thread. Swift Testing runs tests on the cooperative pool,
/// which has one thread per core: two tests waiting for a compiler on a 2-core machine stop every
/// other test, and tests with time limits then fail although nothing of theirs was slow. Waiting
/// through the termination handler suspends the task instead.
public enum ChildProcess {
    /// Starts `process` and suspends until it has exited.
    ///
    /// - Returns: The process's termination status (its exit status, or the signal that ended it).
    /// - Throws: The error of `Process.run()` when the process cannot be started.
    public static func run(_ process: Process) async throws -> Int32 {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { ended in continuation.resume(returning: ended.terminationStatus) }
            do {
                try process.run()
            } catch {
                // Not started: the termination handler is never called.
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
