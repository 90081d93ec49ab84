import Foundation
import HeraldCore
import HeraldProtocol
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
}
