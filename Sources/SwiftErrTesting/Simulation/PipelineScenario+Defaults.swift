import SwiftErr

extension PipelineScenario {
    /// How soon after an upstream's return the default protections admit every request again: the
    /// circuit breaker's break plus one throttle probe interval (10 s).
    public static let defaultRecoveryBound =
        CircuitBreaker.default.breakDuration + AdaptiveThrottle.default.probeInterval

    /// Outages of 5 s, 60 s and 10 minutes at 1, 10, 100 and 2,000 requests per second: every
    /// request answered, and full admission within ``defaultRecoveryBound`` of the return.
    public static let outages: [PipelineScenario] = [1.0, 10, 100, 2000].flatMap { rate in
        [5, 60, 600].map { seconds in
            let outage = Duration.seconds(seconds)
            return PipelineScenario(
                name: "outage \(seconds) s at \(Int(rate))/s",
                script: .outage(at: .seconds(10), lasting: outage), rate: rate, duration: .seconds(30) + outage,
                expectations: [.everyRequestAnswered, .fullAdmission(within: defaultRecoveryBound)])
        }
    }

    /// Half the requests fail for two minutes at 100 requests per second: retries add at most a
    /// fifth to the upstream's load.
    public static let halfFailing = PipelineScenario(
        name: "50 % failing at 100/s",
        script: UpstreamScript([(.zero, .healthy), (.seconds(10), .failing(fraction: 0.5)), (.seconds(130), .healthy)]),
        rate: 100, duration: .seconds(160),
        expectations: [.everyRequestAnswered, .amplification(during: .failing(fraction: 0.5), atMost: 1.2)])

    /// Two minutes of business answers (HTTP 200, code 11210005) at 100 requests per second: a
    /// healthy upstream saying no, so nothing is refused.
    public static let businessAnswers = PipelineScenario(
        name: "business answers at 100/s",
        script: UpstreamScript([(.zero, .healthy), (.seconds(10), .answering(code: 11_210_005))]),
        rate: 100, duration: .seconds(130),
        expectations: [.everyRequestAnswered, .noneRefusedWhileAnswering(after: .zero)])

    /// Tokens that expire every minute, for five minutes at 100 requests per second: one refresh per
    /// expiry, however many requests are refused at once, and no one signed out.
    public static let tokenExpiry = PipelineScenario(
        name: "token expiry every 60 s at 100/s",
        script: UpstreamScript([(.zero, .healthy)]), rate: 100, duration: .seconds(300), tokenExpiry: .seconds(60),
        expectations: [.everyRequestAnswered, .refreshesPerExpiry(atMost: 1), .noReauthenticationFailure])

    /// The token endpoint fails for 30 s after an expiry: those requests fail with the session, none
    /// hangs, and once it answers again every request succeeds.
    public static let failingTokenEndpoint = PipelineScenario(
        name: "token endpoint down 30 s at 100/s",
        script: UpstreamScript([(.zero, .healthy)]), rate: 100, duration: .seconds(180), tokenExpiry: .seconds(60),
        refreshFailures: [.seconds(60) ..< .seconds(90)],
        expectations: [.everyRequestAnswered, .allSucceed(from: .seconds(125))])

    /// The scenarios without a session: outages, half failing, business answers.
    public static let withoutSession: [PipelineScenario] = outages + [halfFailing, businessAnswers]

    /// The scenarios with a session: expiring tokens, a failing token endpoint.
    public static let withSession: [PipelineScenario] = [tokenExpiry, failingTokenEndpoint]

    /// Every scenario: ``withoutSession``, then ``withSession``.
    public static let defaults: [PipelineScenario] = withoutSession + withSession
}
