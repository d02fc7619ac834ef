/// Where SwiftErr starts the unstructured tasks it needs: a session's refresh, which must outlive
/// the cancellation of the request that started it.
///
/// Normally `Task {}`. A `Task {}` does not inherit its creator's task executor, so a simulation
/// (SwiftErrTesting's `PipelineSimulation`, which runs every task of a pipeline on an executor of
/// its own) binds ``start`` for its tasks: task-local values do reach `Task {}`, and the tasks it
/// starts stay on the simulation's executor.
package enum UnstructuredTasks {
    /// Starts a task, or `nil` for `Task {}`.
    @TaskLocal package static var start: (@Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never>)? = nil

    /// Starts `operation` in a task of its own, as ``start`` says.
    /// - Parameter operation: The task's work.
    /// - Returns: The task.
    package static func run(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if let start { return start(operation) }
        return Task { await operation() }
    }
}
