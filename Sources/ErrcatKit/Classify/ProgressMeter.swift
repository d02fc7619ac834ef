// The progress line `classify` keeps on stderr while a large input streams from or to a terminal.

/// Rewrites one stderr line ("errcat: 12.3 M lines, 4.1 M lines/s") at most a few times a second.
struct ProgressMeter {
    let enabled: Bool
    /// Where the line is drawn (standard error).
    let descriptor: Int32
    private let started = monotonicSeconds()
    private var lastUpdate = 0.0
    private var shown = false
    private var nextCheck: UInt64 = 1 << 20

    init(enabled: Bool, descriptor: Int32) {
        self.enabled = enabled
        self.descriptor = descriptor
        self.lastUpdate = started
    }

    /// Called after each block; looks at the clock only every 2^20 lines, and draws only
    /// once the input has passed a million lines (a "large" input).
    mutating func update(lines: UInt64, bytes: UInt64) {
        guard enabled, lines >= nextCheck else { return }
        nextCheck = lines + (1 << 18)
        let now = monotonicSeconds()
        guard now - lastUpdate >= 0.25 else { return }
        lastUpdate = now
        let rate = Double(lines) / max(now - started, 1e-9)
        var out = OutputBuffer(descriptor: descriptor)
        out.write(
            "\rerrcat classify: \(formatMillions(Double(lines))) lines, \(bytes / 1_000_000) MB, \(formatMillions(rate)) lines/s\u{1B}[K"
        )
        out.flush()
        shown = true
    }

    /// Erases the progress line, if one is shown.
    mutating func clear() {
        guard shown else { return }
        var out = OutputBuffer(descriptor: descriptor)
        out.write("\r\u{1B}[K")
        out.flush()
        shown = false
    }
}

/// "12.3 M" style text for large numbers, plain digits below a million.
func formatMillions(_ value: Double) -> String {
    if value < 1e6 { return String(Int(value.rounded())) }
    let tenths = Int((value / 1e5).rounded())
    return "\(tenths / 10).\(tenths % 10) M"
}
