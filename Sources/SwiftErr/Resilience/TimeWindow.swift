/// Two counts over the last stretch of time, as a ring of ten time buckets: the sliding window of
/// ``CircuitBreaker`` (failures and outcomes) and ``AdaptiveThrottle`` (requests and accepts).
///
/// Each bucket covers a tenth of the window and holds both counts packed in one `UInt64` (the first
/// in the low 32 bits, the second in the high ones); the ring is a tuple, so the window lives
/// inline in its owner and adding to it never allocates. Running totals over the ring are kept as
/// buckets are added and expire, so reading them is two loads. When time reaches the end of the
/// current bucket, the ring moves on, dropping the buckets that fell out of the window: the
/// totals cover between nine and ten tenths of the window, never more.
///
/// Time is given as nanoseconds since the owner's origin and never goes back; an earlier time is
/// counted in the current bucket.
struct TimeWindow: Sendable {
    /// The number of buckets.
    static let bucketCount = 10

    typealias Buckets = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// The nanoseconds each bucket covers.
    let bucketWidth: Int64
    private var buckets: Buckets = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// The current bucket's index in the ring.
    private var head = 0
    /// The nanosecond at which the current bucket ends.
    private(set) var headEnd: Int64
    /// The first count over the window.
    private(set) var first = 0
    /// The second count over the window.
    private(set) var second = 0

    /// An empty window of `nanoseconds`, starting at the origin.
    init(nanoseconds: Int64) {
        bucketWidth = max(1, nanoseconds / Int64(Self.bucketCount))
        headEnd = bucketWidth
    }

    /// Moves the window on to `now`, dropping the buckets that fell out of it.
    mutating func advance(to now: Int64) {
        guard now >= headEnd else { return }
        let steps = (now - headEnd) / bucketWidth + 1
        if steps >= Int64(Self.bucketCount) {
            buckets = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            first = 0
            second = 0
            head = Int((Int64(head) + steps) % Int64(Self.bucketCount))
        } else {
            withUnsafeMutableBytes(of: &buckets) { raw in
                let ring = raw.bindMemory(to: UInt64.self)
                for _ in 0..<Int(steps) {
                    head = head == Self.bucketCount - 1 ? 0 : head + 1
                    let expired = ring[head]
                    first -= Int(truncatingIfNeeded: expired & 0xFFFF_FFFF)
                    second -= Int(truncatingIfNeeded: expired >> 32)
                    ring[head] = 0
                }
            }
        }
        headEnd += steps * bucketWidth
    }

    /// Adds to both counts at `now`.
    /// - Parameters:
    ///   - first: Added to the first count (0 or 1).
    ///   - second: Added to the second count (0 or 1).
    ///   - now: Nanoseconds since the owner's origin.
    mutating func add(first addFirst: UInt64, second addSecond: UInt64, at now: Int64) {
        advance(to: now)
        let head = self.head
        withUnsafeMutableBytes(of: &buckets) { raw in
            let ring = raw.bindMemory(to: UInt64.self)
            ring[head] &+= addFirst | addSecond << 32
        }
        first += Int(addFirst)
        second += Int(addSecond)
    }

    /// Empties the window; its buckets then start at `now`.
    mutating func clear(at now: Int64) {
        buckets = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        first = 0
        second = 0
        head = 0
        headEnd = now + bucketWidth
    }
}
