/// Where SwiftErr starts the unstructured tasks it needs: a session's refresh, which must outlive
/// the cancellation of the request that started it.
///
/// Normally `Task {}`. A `Task {}` does not inherit its creator's task executor, so a simulation
/// (SwiftErrTesting's `PipelineSimulation`, which runs every task of a pipeline on an executor of
/// its own) binds ``start`` for its tasks: task-local values do reach `Task {}`, and the tasks it
/// starts stay on the simulation's executor.
package enum UnstructuredTasks {
    /// How tasks are started. A struct rather than a bare function type: an optimised build (Swift
    /// 6 on Linux) binds an optional function-typed task-local value without its type's metadata,
    /// and `withValue` then crashes.
    package struct Starter: Sendable {
        /// Starts a task.
        package let start: @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never>

        /// Creates a starter.
        /// - Parameter start: Starts a task.
        package init(_ start: @escaping @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never>) {
            self.start = start
        }
    }

    /// Starts a task, or `nil` for `Task {}`.
    @TaskLocal package static var start: Starter? = nil

    /// Starts `operation` in a task of its own, as ``start`` says.
    /// - Parameter operation: The task's work.
    /// - Returns: The task.
    package static func run(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if let start { return start.start(operation) }
        return Task { await operation() }
    }
}
