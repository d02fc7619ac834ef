import SwiftErr

/// The executor every task of a ``PipelineSimulation`` runs on: a queue of jobs that runs only
/// when the simulation says so, one job at a time, in the order they were enqueued.
///
/// Tasks started with it as their executor preference (and the tasks they start: child tasks and
/// `Task {}` inherit the preference) run nowhere else, so when ``runUntilIdle()`` returns, every
/// task of the simulation is suspended: asleep on the simulation's clock or waiting for another
/// task. The simulation then moves the clock to the next deadline. Nothing depends on how the
/// system schedules threads, so a run is the same every time.
@available(macOS 15.0, iOS 18.0, macCatalyst 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class SimulationExecutor: TaskExecutor {
    private let jobs = Locked<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    /// Runs jobs, the ones they enqueue included, until none is left.
    /// - Returns: How many jobs ran.
    @discardableResult
    func runUntilIdle() -> Int {
        var ran = 0
        // Two buffers, swapped: the jobs enqueued so far are taken whole, and the queue goes on in
        // the emptied buffer of the batch before, so no job list is copied or reallocated.
        var batch: [UnownedJob] = []
        while true {
            jobs.withLock { swap(&$0, &batch) }
            if batch.isEmpty { return ran }
            for job in batch {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
            ran += batch.count
            batch.removeAll(keepingCapacity: true)
        }
    }
}
