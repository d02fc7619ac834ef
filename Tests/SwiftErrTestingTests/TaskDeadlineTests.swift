import SwiftErrTesting
import Testing

@Suite("Task.value(by:): a bounded wait for a task's value")
struct TaskDeadlineTests {
    @Test("a value that arrives before the deadline is returned, every time, however fast it arrives")
    func valueArrives() async {
        for round in 0..<2000 {
            let task = Task { round }
            #expect(await task.value(by: .now + .seconds(60)) == round)
        }
    }

    @Test("a task that does not end by the deadline gives nil and is cancelled")
    func deadlinePasses() async {
        let task = Task { () -> Bool in
            try? await Task.sleep(for: .seconds(600))
            return Task.isCancelled
        }
        let start = ContinuousClock.now
        #expect(await task.value(by: .now + .milliseconds(100)) == nil)
        #expect(ContinuousClock.now - start >= .milliseconds(100))
        #expect(await task.value == true)
    }
}
