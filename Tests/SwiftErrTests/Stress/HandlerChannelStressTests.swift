import Foundation
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

    @Test("two handlers on one channel receive every error from 8 producers exactly once")
    func channelDeliversEverything() async {
        let producers = 8
        let perProducer = 1_000
        let total = producers * perProducer
        let channel = ErrorChannel<ModuleRespError<StudyGroupCode>>(bufferLimit: total)
        let first = channel.attach()
        let second = channel.attach()
        func collect(_ subscription: ErrorSubscription<ModuleRespError<StudyGroupCode>>) async -> [UInt64] {
            var seen: [UInt64] = []
            for await delivery in subscription { seen.append(delivery.sequenceNumber) }
            return seen
        }
        async let a = collect(first)
        async let b = collect(second)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<producers {
                group.addTask {
                    for _ in 0..<perProducer { _ = channel.emit(.module(.wrongTeamCode)) }
                }
            }
        }
        channel.finish()
        let (seenA, seenB) = await (a, b)
        for seen in [seenA, seenB] {
            #expect(seen.count == total)
            #expect(Set(seen).count == total)
            #expect(seen == seen.sorted())
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
            for await delivery in slow {
                received += 1
                reportedDrops += delivery.droppedBefore
                if let last, delivery.sequenceNumber <= last { increasing = false }
                last = delivery.sequenceNumber
                if received % 64 == 0 { await Task.yield() }
            }
            return (received, reportedDrops, increasing)
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<producers {
                group.addTask {
                    for _ in 0..<perProducer { _ = channel.emit(.base(.tokenExpire)) }
                }
            }
        }
        channel.finish()
        let (received, reportedDrops, increasing) = await consumer.value
        #expect(increasing)
        #expect(received + slow.droppedCount == total)
        #expect(reportedDrops <= slow.droppedCount)
        #expect(channel.droppedCount == slow.droppedCount)
        #expect(received <= total)
    }
}
