extension ErrorChannel {
    /// Adapts any error with ``ErrorAdapterRegistry/handle(_:)`` and emits the module error, unless
    /// an adapter deliberately ignores it.
    /// - Parameters:
    ///   - error: The error caught.
    ///   - adapters: The registry.
    /// - Returns: What the registry made of the error; an ignored error is not emitted.
    @discardableResult
    public func emit<Code: ModuleCode>(
        adapting error: any Error,
        with adapters: ErrorAdapterRegistry<Code>
    ) -> AdaptedError<Code>
    where Failure == ModuleRespError<Code> {
        let adapted = adapters.handle(error)
        if let moduleError = adapted.error { emit(moduleError) }
        return adapted
    }
}
