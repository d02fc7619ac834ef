#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's monotonic time at the resolution of the scheduler's tick, which is what
/// ``UpstreamProtection`` reads by default.
///
/// Windows and breaks last seconds, so a few milliseconds of resolution are plenty; what matters on
/// a hot path is the cost of the read. On Linux `CLOCK_MONOTONIC_COARSE` is read from the vDSO
/// without touching the clock hardware (about 10 ns on a 2-core KVM guest, where `ContinuousClock.now`
/// measured 70–100 ns); on Apple platforms `CLOCK_UPTIME_RAW_APPROX` is the counterpart. Neither
/// advances while the machine sleeps, like `SuspendingClock`.
enum CoarseMonotonicTime {
    /// Nanoseconds since an arbitrary fixed point.
    @inline(__always)
    static func nanoseconds() -> Int64 {
        #if canImport(Darwin)
            return Int64(truncatingIfNeeded: clock_gettime_nsec_np(CLOCK_UPTIME_RAW_APPROX))
        #else
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
            return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
        #endif
    }
}
