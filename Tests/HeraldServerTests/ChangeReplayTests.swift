import Foundation
import HeraldCore
import HeraldProtocol
import HeraldStorage
import HeraldTesting
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// What the change log keeps of a request, and that replaying it makes the same change:
/// the same caller, params, clock value and drawn identifiers.
@Suite("Change capture and replay, in process")
struct ChangeReplayTests {
    final class Captured: Sendable {
        let changes = NIOLockedValueBox<[PendingChange]>([])
    }

    static func processor(_ state: SharedState, clock: ManualClock, capturing: Bool) -> RequestProcessor {
        var environment = MethodEnvironment(
            state: state, clock: CapturingClock(clock), statistics: ServerStatistics(), openRPCDocument: ["openrpc": "1.3.2"])
        environment.capturesChanges = capturing
        return RequestProcessor(
            methods: .herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry())),
            limits: RequestLimits(), statistics: ServerStatistics(), recorder: CollectingRecorder())
    }

    static let person = RequestContext(caller: Caller(uid: 1000, gid: 1000, pid: 43, isAdministrator: false))

    static func call(_ processor: RequestProcessor, _ method: String, _ params: String) throws -> JSONValue {
        let text = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
        let bytes = try #require(processor.process(text: Array(text.utf8), context: person))
        return try IndependentJSON.parse(String(decoding: bytes.dropLast(), as: UTF8.self))
    }

    @Test("Changes are captured in order with their time and drawn identifiers; replay rebuilds the same state")
    func captureAndReplay() throws {
        let captured = Captured()
        let clock = ManualClock()
        let live = SharedState(HeraldState(configuration: CoreConfiguration())) { change in
            captured.changes.withLockedValue { $0.append(change) }
        }
        let processor = Self.processor(live, clock: clock, capturing: true)
        let donation =
            #"{"app":"org.example.chat","interaction":{"direction":"incoming","#
            + #""intent":{"type":"sendMessage","sender":{"displayName":"Ann"},"conversationIdentifier":"c1"}}}"#
        let donated = try Self.call(processor, "donate", donation)
        let drawn = try #require(donated[pointer: "/result/identifier"]?.stringValue, "\(donated)")
        clock.advance(by: 5)
        let updated = try Self.call(processor, "update-content", #"{"app":"org.example.chat","content":{"title":"Hi","body":"Lunch?"}}"#)
        let notification = try #require(updated[pointer: "/result/identifier"]?.stringValue, "\(updated)")
        // Refused by the rules: not captured.
        let refused = try Self.call(processor, "update-content", #"{"app":"not an app","content":{"body":"x"}}"#)
        #expect(refused[pointer: "/error"] != nil)
        // A read: not captured.
        _ = try Self.call(processor, "list-notifications", #"{"app":"org.example.chat"}"#)

        let changes = captured.changes.withLockedValue { $0 }
        #expect(changes.map(\.method) == ["donate", "update-content"])
        #expect(changes[0].generated == [drawn])
        #expect(changes[1].generated == [notification])
        #expect(changes[1].appliedAt == clock.now())
        #expect(changes[0].appliedAt == clock.now().addingTimeInterval(-5))

        let replayed = SharedState(HeraldState(configuration: CoreConfiguration()))
        let replay = ChangeReplay(state: replayed)
        for change in changes {
            #expect(
                replay.apply(
                    method: change.method, caller: change.caller, appliedAt: try #require(change.appliedAt), params: change.params,
                    generated: change.generated))
        }
        let reader = Self.processor(replayed, clock: clock, capturing: false)
        let listing = #"{"app":"org.example.chat"}"#
        #expect(try Self.call(reader, "list-notifications", listing) == Self.call(processor, "list-notifications", listing))
        #expect(replayed.read { $0.interactionCount } == 1)
        // The donation's drawn identifier came back: the same donation again is a retry.
        let again = try Self.call(reader, "donate", donation.replacingOccurrences(of: #""direction""#, with: #""identifier":"\#(drawn)","direction""#))
        #expect(again[pointer: "/result/identifier"] == .string(drawn), "\(again)")
        #expect(replayed.read { $0.interactionCount } == 1)
    }

    /// The state as a snapshot encodes it, every member in a fixed order: two states made
    /// by the same changes encode alike.
    static func encoded(_ state: SharedState) throws -> [UInt8] {
        try SnapshotFile(encoding: state.copy(), generation: 1, now: Date(timeIntervalSince1970: 1_800_000_000)).payload
    }

    @Test("Replay on two threads, donations a batch at a time, makes the state one record at a time makes, and live made")
    func pipelinedReplay() throws {
        var random = SeededRandom(for: "pipelinedReplay")
        let captured = Captured()
        let clock = ManualClock()
        let live = SharedState(HeraldState(configuration: CoreConfiguration())) { change in
            captured.changes.withLockedValue { $0.append(change) }
        }
        let processor = Self.processor(live, clock: clock, capturing: true)
        let apps = ["org.example.chat", "org.example.mail", "org.example.phone"]
        // Past one batch several times over (ChangeReplay.batchSize), so that runs of
        // donations cross batches and other changes fall between them.
        for step in 0..<(3 * ChangeReplay.batchSize) {
            clock.advance(by: Double(random.next() % 3))
            let app = apps[Int(random.next() % 3)]
            let identifier = random.next() % 4 == 0 ? "" : #""identifier":"i\#(random.next() % 900)","#
            let params: String
            switch random.next() % 10 {
            case 0:
                params = #"{"app":"\#(app)","content":{"title":"T\#(step)","body":"B"}}"#
                _ = try Self.call(processor, "update-content", params)
            case 1:
                _ = try Self.call(processor, "delete-interactions", #"{"app":"\#(app)","identifiers":["i\#(random.next() % 900)"]}"#)
            default:
                // The same identifier again is a retry, or, with another text, refused (and not logged).
                params =
                    #"{"app":"\#(app)","interaction":{\#(identifier)"direction":"incoming","intent":{"type":"sendMessage","#
                    + #""sender":{"displayName":"P\#(random.next() % 7)"},"conversationIdentifier":"c\#(random.next() % 5)","#
                    + #""content":"m\#(random.next() % 2)"}}}"#
                _ = try Self.call(processor, "donate", params)
            }
        }
        var changes = captured.changes.withLockedValue { $0 }
        #expect(changes.filter { $0.method == "donate" }.count > ChangeReplay.batchSize)
        #expect(Set(changes.map(\.method)) == ["donate", "update-content", "delete-interactions"])
        // Records no replay applies, and periodic work, among them.
        let person = Self.person.caller
        changes.insert(PendingChange(method: "no-such-method", caller: person, params: Array("{}".utf8), appliedAt: clock.now()), at: 5)
        changes.insert(PendingChange(method: "donate", caller: person, params: Array("{".utf8), appliedAt: clock.now()), at: 9)
        changes.insert(
            PendingChange(method: ChangeReplay.pruneTick, caller: ChangeCapture.daemon, params: [], appliedAt: clock.now()),
            at: changes.count / 2)
        // As the log keeps them, read back.
        var bytes = ChangeLogFile.header(baseGeneration: 0, createdAt: clock.now())
        for change in changes {
            ChangeLogFile.append(
                ChangeRecord(
                    method: change.method, caller: change.caller, appliedAt: change.appliedAt ?? clock.now(), params: change.params,
                    generated: change.generated),
                to: &bytes)
        }
        let logged = bytes
        let records = try ChangeLogFile.read(logged).records
        #expect(records.count == changes.count)

        let oneByOne = SharedState(HeraldState(configuration: CoreConfiguration()))
        let single = ChangeReplay(state: oneByOne)
        var appliedOneByOne = 0
        for record in records {
            let done = single.apply(
                method: record.method, caller: record.caller, appliedAt: record.appliedAt, params: record.params,
                generated: record.generated)
            if done { appliedOneByOne += 1 }
        }
        let pipelined = SharedState(HeraldState(configuration: CoreConfiguration()))
        let (applied, reading) = ChangeReplay(state: pipelined).replay { next in
            try? ChangeLogFile.read(logged) { record in
                next(record.method, record.caller, record.appliedAt, record.params, record.generated)
            }
        }
        #expect(reading?.recordCount == records.count)
        #expect(applied == records.count - 2)
        #expect(appliedOneByOne == applied)
        #expect(pipelined.read { $0.interactionCount } == live.read { $0.interactionCount })
        #expect(pipelined.read { $0.interactionCount } > 100)
        let expected = try Self.encoded(live)
        #expect(try Self.encoded(oneByOne) == expected)
        #expect(try Self.encoded(pipelined) == expected)
    }
}
