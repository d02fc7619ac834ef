import Foundation
import SwiftErrDefaultCatalog
import Testing

@testable import SwiftErr

/// Base-code handling and error channels under concurrent load, checked against a
/// single-threaded reference. Runs under `swift test --sanitize=thread` in CI.
@Suite("Handlers and channels under load")
struct HandlerChannelStressTests {
    /// Deterministic response bodies: success, every base code, module codes, unrecognised,
    /// other modules' codes, unknown codes and invalid envelopes.
    static func bodies(count: Int, seed: UInt64) -> [Data] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let base: [Int64] = [11001, 11002, 11003, 11004, 11005, 11006, 11010, 11011]
        let module: [Int64] = [11_210_005, 11_210_006, 11_210_018, 11_219_999, 11_160_003, 11_010_017]
        return (0..<count).map { _ in
            let text: String
            switch next() % 10 {
            case 0, 1, 2: text = #"{"ret":0,"msg":"ok"}"#
            case 3, 4: text = #"{"ret":\#(base[Int(next() % UInt64(base.count))]),"msg":"base"}"#
            case 5, 6: text = #"{"ret":\#(module[Int(next() % UInt64(module.count))]),"msg":"module"}"#
            case 7: text = #"{"ret":\#(Int64(bitPattern: next())),"msg":"anything"}"#
            case 8: text = #"{"ret":"11001"}"#
            default: text = #"{"msg":"no code"}"#
            }
            return Data(text.utf8)
        }
    }

    /// A comparable summary of one outcome.
    static func summary(_ result: Result<NoData, ModuleRespError<StudyGroupCode>>) -> String {
        switch result {
        case .success: return "success"
        case .failure(let error): return "\(error)"
        }
    }

    @Test("the base handler runs exactly once per base response, from 32 concurrent tasks")
    func baseHandlerExactlyOnce() async {
        let bodies = Self.bodies(count: 8_000, seed: 7)
        // Reference: one thread, no handler; the expected handler calls are the base outcomes.
        let plain = ResponseDecoder()
        let expected = bodies.map { Self.summary(plain.result(NoData.self, module: StudyGroupCode.self, from: $0)) }
        var expectedCalls: [Int64: Int] = [:]
        for body in bodies {
            if case .failure(.base(let code)) = plain.result(NoData.self, module: StudyGroupCode.self, from: body) {
                expectedCalls[code.rawValue, default: 0] += 1
            }
        }
        #expect(expectedCalls.values.reduce(0, +) > 1_000)

        let calls = Locked<[Int64: Int]>([:])
        let decoder = ResponseDecoder(
            baseHandler: BaseCodeHandler { event in
                calls.withLock { $0[event.code.rawValue, default: 0] += 1 }
            })
        let tasks = 32
        let got = await withTaskGroup(of: [(Int, String)].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    stride(from: task, to: bodies.count, by: tasks).map { index in
                        (
                            index,
                            Self.summary(decoder.result(NoData.self, module: StudyGroupCode.self, from: bodies[index]))
                        )
                    }
                }
            }
            var all = [String](repeating: "", count: bodies.count)
            for await part in group {
                for (index, text) in part { all[index] = text }
            }
            return all
        }
        #expect(got == expected)
        #expect(calls.withLock { $0 } == expectedCalls)
    }

    @Test("six handlers on one channel receive every error from 8 producers exactly once, in order")
    func channelDeliversEverything() async {
        let producers = 8
        let perProducer = 1_000
        let total = producers * perProducer
        let channel = ErrorChannel<ModuleRespError<StudyGroupCode>>(bufferLimit: total)
        let subscriptions = (0..<6).map { _ in channel.attach() }
        func collect(_ subscription: ErrorSubscription<ModuleRespError<StudyGroupCode>>) async -> [UInt64] {
            var seen: [UInt64] = []
            for await delivery in subscription { seen.append(delivery.sequenceNumber) }
            return seen
        }
        let collectors = subscriptions.map { subscription in Task { await collect(subscription) } }
        // Producers on threads of their own, so that the system can preempt one in the middle of
        // an emission while another emits.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let running = Locked(producers)
            for _ in 0..<producers {
                Thread {
                    for _ in 0..<perProducer { _ = channel.emit(.module(.wrongTeamCode)) }
                    if running.withLock({ running in
                        running -= 1
                        return running == 0
                    }) {
                        done.resume()
                    }
                }.start()
            }
        }
        channel.finish()
        var seenByHandler: [[UInt64]] = []
        let deadline = ContinuousClock.now + Ending.limit
        for collector in collectors { seenByHandler.append(await Ending.value(of: collector, by: deadline) ?? []) }
        #expect(seenByHandler.count == 6)
        for seen in seenByHandler {
            #expect(seen.count == total)
            #expect(Set(seen).count == total)
            #expect(seen == seen.sorted())
            #expect(seen == Array(0..<UInt64(total)))
        }
        #expect(channel.droppedCount == 0)
        #expect(channel.unhandledCount == 0)
    }

    @Test("a slow handler with a small buffer loses nothing silently: received + dropped = emitted")
    func boundedBufferAccountsForDrops() async {
        let producers = 4
        let perProducer = 2_000
        let total = producers * perProducer
        let channel = ErrorChannel<ModuleRespError<StudyGroupCode>>(bufferLimit: 16)
        let slow = channel.attach()
        let consumer = Task {
            var received = 0
            var reportedDrops = 0
            var last: UInt64? = nil
            var increasing = true
            var gapsAreDrops = true
            for await delivery in slow {
                received += 1
                reportedDrops += delivery.droppedBefore
                if let last, delivery.sequenceNumber <= last { increasing = false }
                // Attached before the first emission: every gap in the numbers is a reported drop.
                if delivery.sequenceNumber != (last.map { $0 + 1 } ?? 0) + UInt64(delivery.droppedBefore) {
                    gapsAreDrops = false
                }
                last = delivery.sequenceNumber
                if received % 64 == 0 { await Task.yield() }
            }
            return (received, reportedDrops, increasing, gapsAreDrops, last)
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<producers {
                group.addTask {
                    for _ in 0..<perProducer { _ = channel.emit(.base(.tokenExpire)) }
                }
            }
        }
        channel.finish()
        guard let (received, reportedDrops, increasing, gapsAreDrops, last) = await Ending.value(of: consumer) else {
            return
        }
        #expect(increasing)
        #expect(gapsAreDrops)
        #expect(received + slow.droppedCount == total)
        // The oldest errors are dropped, so the newest one arrives and every drop is reported before it.
        #expect(last == UInt64(total - 1))
        #expect(reportedDrops == slow.droppedCount)
        #expect(channel.droppedCount == slow.droppedCount)
        #expect(received <= total)
    }

    /// What one handler of ``handlerChurn()`` saw.
    struct HandlerOutcome: Sendable {
        enum Exit: Sendable { case finish, cancel, detach }
        let exit: Exit
        var received = 0
        var reportedDrops = 0
        /// Every delivery's number is the previous one plus one plus its `droppedBefore`.
        var consistent = true
        var droppedCount = 0
    }

    @Test(
        "handlers that stay, cancel or detach while 4 producers emit: each sequence ends, no error is unaccounted for")
    func handlerChurn() async {
        let producers = 4
        let perProducer = 2_000
        let total = producers * perProducer
        let bufferLimit = 8
        let channel = ErrorChannel<ModuleRespError<StudyGroupCode>>(bufferLimit: bufferLimit)
        let exits: [HandlerOutcome.Exit] = (0..<12).map { [.finish, .cancel, .detach][$0 % 3] }
        // All attached before the first emission, so each is offered every error until it leaves.
        let subscriptions = exits.map { _ in channel.attach() }
        let consumers = zip(exits, subscriptions).enumerated().map { index, pair in
            let (exit, subscription) = pair
            let leaveAfter = 40 + 53 * index
            return Task {
                var outcome = HandlerOutcome(exit: exit)
                var expected: UInt64 = 0
                for await delivery in subscription {
                    outcome.received += 1
                    outcome.reportedDrops += delivery.droppedBefore
                    if delivery.sequenceNumber != expected + UInt64(delivery.droppedBefore) {
                        outcome.consistent = false
                    }
                    expected = delivery.sequenceNumber + 1
                    if outcome.received == leaveAfter {
                        switch exit {
                        case .finish: break
                        case .cancel: withUnsafeCurrentTask { $0?.cancel() }
                        case .detach: subscription.detach()
                        }
                    }
                    if outcome.received % 16 == 0 { await Task.yield() }
                }
                outcome.droppedCount = subscription.droppedCount
                return outcome
            }
        }
        let offered = await withTaskGroup(of: (sum: Int, zeros: Int).self) { group in
            for _ in 0..<producers {
                group.addTask {
                    var sum = 0
                    var zeros = 0
                    for _ in 0..<perProducer {
                        let count = channel.emit(.base(.tokenExpire))
                        sum += count
                        if count == 0 { zeros += 1 }
                    }
                    return (sum, zeros)
                }
            }
            return await group.reduce(into: (sum: 0, zeros: 0)) {
                $0.sum += $1.sum
                $0.zeros += $1.zeros
            }
        }
        channel.finish()
        var outcomes: [HandlerOutcome] = []
        let deadline = ContinuousClock.now + Ending.limit
        for consumer in consumers {
            if let outcome = await Ending.value(of: consumer, by: deadline) { outcomes.append(outcome) }
        }
        #expect(outcomes.count == exits.count)

        #expect(channel.handlerCount == 0)
        #expect(offered.zeros == 0)  // the handlers that stay until the end get everything
        #expect(channel.unhandledCount == 0)
        #expect(channel.droppedCount == outcomes.map(\.droppedCount).reduce(0, +))
        var accountedFor = 0
        for outcome in outcomes {
            #expect(outcome.consistent)
            switch outcome.exit {
            case .finish:
                #expect(outcome.received + outcome.droppedCount == total)
                #expect(outcome.reportedDrops == outcome.droppedCount)
            case .cancel:
                // A cancelled handler still receives what was buffered, so every drop is reported.
                #expect(outcome.reportedDrops == outcome.droppedCount)
            case .detach:
                #expect(outcome.reportedDrops <= outcome.droppedCount)
            }
            accountedFor += outcome.received + outcome.droppedCount
        }
        // Every error a handler accepted was received or reported dropped, except what a detached
        // handler still had buffered (at most a buffer's worth each).
        let detached = exits.filter { $0 == .detach }.count
        #expect(offered.sum >= accountedFor)
        #expect(offered.sum - accountedFor <= detached * bufferLimit)
    }
}
