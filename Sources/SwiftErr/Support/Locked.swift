#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`, with the same `withLock` shape as
/// `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux the standard library's `Mutex` locks with futex calls inside code
/// that ThreadSanitizer does not instrument. TSan then reports every guarded access as a race
/// (shown with a 4-thread counter on this toolchain), so `swift test --sanitize=thread` could not
/// check this package. A pthread mutex is intercepted by TSan, so its reports stay meaningful.
///
/// `@unchecked Sendable` is sound: `value` is only reached inside ``withLock(_:)``, between
/// `pthread_mutex_lock` and `pthread_mutex_unlock` on `mutex`, so no two threads access it at
/// once. `mutex` is allocated once, initialised before use, and destroyed and freed only in
/// `deinit`, when no thread can hold a reference any more.
///
/// `value` is `@exclusivity(unchecked)` for the same reason: the mutex already makes each access
/// exclusive, and the runtime's dynamic check of a class property (`swift_beginAccess`, a
/// thread-local access set) cost about 270 of the 944 instructions of an `UpstreamProtection`
/// decision (callgrind). ``withLock(_:)``'s body must not call `withLock` on the same
/// lock, which the mutex would turn into a deadlock anyway.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @exclusivity(unchecked) private var value: Value

    /// Guards `value`.
    package init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    /// - Parameter body: Reads or changes the value; must not call `withLock` on this lock again.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
