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

    static func call(_ processor: RequestProcessor, _ method: String, _ params: String, as context: RequestContext = person) throws -> JSONValue {
        let text = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
        let bytes = try #require(processor.process(text: Array(text.utf8), context: context))
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

        // The donation is logged as stored, its drawn identifier in its interaction.
        #expect(changes[0].donation?.record.interaction.identifier == drawn)
        let replayed = SharedState(HeraldState(configuration: CoreConfiguration()))
        let replay = ChangeReplay(state: replayed)
        for change in changes {
            #expect(replay.apply([Self.prepared(Self.record(change, at: clock.now()), by: replay)]) == 1)
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

    /// A change as heraldd logs it: what a donation stored, the params of any other request.
    static func record(_ change: PendingChange, at now: Date) -> ChangeRecord {
        if let donation = change.donation {
            return ChangeRecord(donationBy: change.caller, appliedAt: change.appliedAt ?? now, app: donation.app, record: donation.record)
        }
        return ChangeRecord(
            method: change.method, caller: change.caller, appliedAt: change.appliedAt ?? now, params: Array(change.params),
            generated: change.generated)
    }

    /// A live state whose changes are captured as heraldd logs them, on a manual clock,
    /// and a processor answering requests on it.
    static func recording() -> (Captured, ManualClock, SharedState, RequestProcessor) {
        let captured = Captured()
        let clock = ManualClock()
        let live = SharedState(HeraldState(configuration: CoreConfiguration())) { change in
            captured.changes.withLockedValue { $0.append(change) }
        }
        return (captured, clock, live, processor(live, clock: clock, capturing: true))
    }

    /// `changes` as a change log segment holds them.
    static func logged(_ changes: [PendingChange], at now: Date) -> [UInt8] {
        var bytes = ChangeLogFile.header(baseGeneration: 0, createdAt: now)
        for change in changes { ChangeLogFile.append(record(change, at: now), to: &bytes) }
        return bytes
    }

    /// A record made ready for replay, as heraldd makes it.
    static func prepared(_ record: ChangeRecord, by replay: ChangeReplay) -> PreparedChange {
        switch record.change {
        case .request(let params, let generated):
            return replay.prepare(
                method: record.method, caller: record.caller, appliedAt: record.appliedAt, params: params, generated: generated)
        case .donation(let app, let interaction):
            return replay.prepareDonation(caller: record.caller, appliedAt: record.appliedAt, app: app, record: interaction)
        }
    }

    /// The state as a snapshot encodes it, every member in a fixed order: two states made
    /// by the same changes encode alike.
    static func encoded(_ state: SharedState) throws -> [UInt8] {
        try SnapshotFile(encoding: state.copy(), generation: 1, now: Date(timeIntervalSince1970: 1_800_000_000)).payload
    }

    @Test("Replay on two threads, donations a batch at a time, makes the state one record at a time makes, and live made")
    func pipelinedReplay() throws {
        var random = SeededRandom(for: "pipelinedReplay")
        let (captured, clock, live, processor) = Self.recording()
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
        // As the log keeps them, read back: donations as stored, the rest as params.
        let logged = Self.logged(changes, at: clock.now())
        let records = try ChangeLogFile.read(logged).records
        #expect(records.count == changes.count)
        #expect(records.filter { if case .donation = $0.change { true } else { false } }.count > ChangeReplay.batchSize)

        let oneByOne = SharedState(HeraldState(configuration: CoreConfiguration()))
        let single = ChangeReplay(state: oneByOne)
        var appliedOneByOne = 0
        for record in records {
            appliedOneByOne += single.apply([Self.prepared(record, by: single)])
        }
        let pipelined = SharedState(HeraldState(configuration: CoreConfiguration()))
        let pipeline = ChangeReplay(state: pipelined)
        let (applied, reading) = pipeline.replay { next in
            try? ChangeLogFile.read(logged) { record in next(Self.prepared(record, by: pipeline)) }
        }
        #expect(reading?.recordCount == records.count)
        #expect(applied == records.count - 2)
        #expect(appliedOneByOne == applied)
        #expect(pipelined.read { $0.interactionCount } == live.read { $0.interactionCount })
        #expect(pipelined.read { $0.interactionCount } > 100)
        let expected = try Self.encoded(live)
        #expect(try Self.encoded(oneByOne) == expected)
        #expect(try Self.encoded(pipelined) == expected)

        // The same changes as a heraldd before format version 2 logged them, every one a
        // request's params: an upgraded heraldd replays them to the same state.
        var old = ChangeLogFile.header(baseGeneration: 0, createdAt: clock.now(), version: 1)
        for change in changes {
            ChangeLogFile.append(
                ChangeRecord(
                    method: change.method, caller: change.caller, appliedAt: change.appliedAt ?? clock.now(), params: Array(change.params),
                    generated: change.generated),
                to: &old, version: 1)
        }
        let oldLog = old
        let upgraded = SharedState(HeraldState(configuration: CoreConfiguration()))
        let upgrade = ChangeReplay(state: upgraded)
        let (appliedOld, readingOld) = upgrade.replay { next in
            try? ChangeLogFile.read(oldLog) { record in next(Self.prepared(record, by: upgrade)) }
        }
        #expect(readingOld?.header.version == 1)
        #expect(readingOld?.recordCount == changes.count)
        #expect(appliedOld == applied)
        #expect(try Self.encoded(upgraded) == expected)
    }

    /// A restart's limits, lower than the live heraldd's: what the log's donations evict and
    /// refuse at replay.
    struct Limits: CustomStringConvertible, Sendable {
        var total = 1_000_000
        var perUID = 500_000
        var apps = 256
        var description: String { "total \(total), per uid \(perUID), apps \(apps)" }

        var configuration: CoreConfiguration {
            var configuration = CoreConfiguration()
            configuration.maxInteractions = total
            configuration.maxInteractionsPerUID = perUID
            configuration.maxAppsPerUID = apps
            return configuration
        }
    }

    @Test(
        "Replay on two threads, its donations held in runs, makes the state one record at a time makes, whatever the limits evict or refuse",
        arguments: [
            Limits(),
            Limits(perUID: 300),
            Limits(total: 700),
            Limits(total: 500, perUID: 400),
            Limits(apps: 2),
        ])
    func pipelinedReplayUnderLimits(_ limits: Limits) throws {
        var random = SeededRandom(for: "pipelinedReplayUnderLimits \(limits)")
        let (captured, clock, live, processor) = Self.recording()
        let apps = ["org.example.chat", "org.example.mail", "org.example.phone"]
        let people = [1000, 1001, 0].map { RequestContext(caller: Caller(uid: $0, gid: $0, pid: 43, isAdministrator: $0 == 0)) }
        // A long run, held past ChangeReplay.parallelRunSize, with requests
        // between shorter runs before and after it.
        let count = ChangeReplay.parallelRunSize * 3 / 2 + 2000
        for step in 0..<count {
            clock.advance(by: Double(random.next() % 2))
            let person = people[Int(random.next() % 3)]
            let app = apps[Int(random.next() % 3)]
            let isLongRun = step >= 1000 && step < count - 1000
            switch isLongRun ? 9 : random.next() % 20 {
            case 0:
                _ = try Self.call(processor, "update-content", #"{"app":"\#(app)","content":{"title":"T\#(step)","body":"B"}}"#, as: person)
            case 1:
                _ = try Self.call(
                    processor, "delete-interactions", #"{"app":"\#(app)","identifiers":["i\#(random.next() % 3000)"]}"#, as: person)
            default:
                // An identifier donated before is a retry; one with another text is refused
                // (and not logged); one evicted since is donated anew.
                let intent =
                    random.next() % 5 == 0
                    ? #"{"type":"startCall","contacts":[{"displayName":"C\#(random.next() % 4)"}]}"#
                    : #"{"type":"sendMessage","sender":{"displayName":"P\#(random.next() % 7)"},"conversationIdentifier":"c\#(random.next() % 5)","content":"m"}"#
                _ = try Self.call(
                    processor, "donate",
                    #"{"app":"\#(app)","interaction":{"identifier":"i\#(random.next() % 3000)","direction":"incoming","intent":\#(intent)}}"#,
                    as: person)
            }
        }
        let changes = captured.changes.withLockedValue { $0 }
        let logged = Self.logged(changes, at: clock.now())
        let records = try ChangeLogFile.read(logged).records
        #expect(records.count == changes.count)

        let oneByOne = SharedState(HeraldState(configuration: limits.configuration))
        let single = ChangeReplay(state: oneByOne)
        var appliedOneByOne = 0
        for record in records {
            appliedOneByOne += single.apply([Self.prepared(record, by: single)])
        }
        let pipelined = SharedState(HeraldState(configuration: limits.configuration))
        let pipeline = ChangeReplay(state: pipelined)
        let (applied, _) = pipeline.replay { next in
            try? ChangeLogFile.read(logged) { record in next(Self.prepared(record, by: pipeline)) }
        }
        #expect(applied == records.count)
        #expect(appliedOneByOne == applied)
        #expect(try Self.encoded(pipelined) == Self.encoded(oneByOne))
        #expect(pipelined.read { $0.fairShares } == oneByOne.read { $0.fairShares })
        #expect(pipelined.read { $0.interactionCount } == oneByOne.read { $0.interactionCount })
        #expect(pipelined.read { $0.interactionCount } > 100)
        if limits.total < 1_000_000 || limits.perUID < 500_000 {
            #expect(pipelined.read { $0.evictedCount } > 0)
        } else if limits.apps < 256 {
            #expect(pipelined.read { $0.fairShares.appsRefused } > 0)
        } else {
            // The limits the live heraldd had: the state it made.
            #expect(try Self.encoded(pipelined) == Self.encoded(live))
        }
        // Why an interaction is unknown (deleted, evicted) is not in a snapshot: asked of both
        // (last: an interaction found makes a notification in each).
        let (oneByOneReader, pipelinedReader) = (
            Self.processor(oneByOne, clock: clock, capturing: false), Self.processor(pipelined, clock: clock, capturing: false)
        )
        for identifier in 0..<300 {
            let params = #"{"app":"org.example.chat","interactionIdentifier":"i\#(identifier)","content":{"body":"B"}}"#
            #expect(
                try Self.call(pipelinedReader, "update-content", params)[pointer: "/error"]
                    == Self.call(oneByOneReader, "update-content", params)[pointer: "/error"])
        }
    }
}
