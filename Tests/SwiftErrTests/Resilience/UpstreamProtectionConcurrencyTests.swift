import SwiftErr
import SwiftErrTesting
import Testing

/// One protection used from many tasks at once, with a listener: every permit is counted back,
/// and the counts add up (run under ThreadSanitizer in CI's sanitizer stage).
@Suite("Upstream protection under concurrent use", .timeLimit(.minutes(1)))
struct UpstreamProtectionConcurrencyTests {
    @Test("8 tasks × 2,000 decisions: nothing left in flight, every sent request counted once")
    func concurrentDecisions() async throws {
        let protection = UpstreamProtection(
            retryBudget: try RetryBudget(maxTokens: 1000, tokenRatio: 1),
            circuitBreaker: try CircuitBreaker(
                failureRatio: 0.9, minimumThroughput: 50, breakDuration: .milliseconds(1)),
            throttle: try AdaptiveThrottle(minimumRequests: 0))
        let listener = Task {
            var count = 0
            for await _ in protection.circuitTransitions(bufferingNewest: 1024) { count += 1 }
            return count
        }
        let sent = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var sent = 0
                    for index in 0..<2_000 {
                        let outcome: UpstreamOutcome =
                            (index + task) % 3 == 0 ? .failure(.transport) : index % 7 == 0 ? .unjudged : .answer
                        guard let permit = try? protection.admit(isRetry: index % 5 == 0) else { continue }
                        sent += 1
                        protection.record(outcome, for: permit)
                    }
                    return sent
                }
            }
            var total = 0
            for await part in group { total += part }
            return total
        }
        #expect(sent > 0)
        let budget = try #require(protection.retryBudget)
        #expect(budget.activeAttempts == 0)
        #expect(budget.activeRetries == 0)
        let throttle = try #require(protection.throttle)
        // Every sent request with a judged outcome, and every shed one, is a request of the window.
        #expect(throttle.requests <= 16_000)
        #expect(throttle.accepts <= throttle.requests)
        listener.cancel()
        _ = await listener.value
        #expect(protection.listenerCount == 0)
    }
}
