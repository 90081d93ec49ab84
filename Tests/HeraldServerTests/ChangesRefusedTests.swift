import Foundation
import HeraldCore
import HeraldProtocol
import HeraldTesting
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// While the state cannot be written, the methods that change it are refused with 1011 and
/// the others answered; the descriptors say which are which, and `openrpc.json` agrees.
@Suite("Changes refused while the state cannot be written, in process")
struct ChangesRefusedTests {
    /// The methods whose requests change the state snapshots keep: written out by hand, so
    /// that a descriptor changing its answer fails here.
    static let changing: Set<String> = [
        "define-focus", "delete-focus", "delete-interactions", "deliver-summary", "donate", "hold-focus",
        "release-focus-hold", "remove-notifications", "request-focus", "respond-to-notification", "restore-notifications", "set-capabilities", "set-conversation",
        "set-cooldown", "set-focus", "set-focus-authorization", "set-notification-categories", "set-summary",
        "snooze-notification", "update-content",
    ]

    @Test func theDescriptorsSayWhichMethodsChangeTheState() {
        #expect(Set(HeraldMethods.all.filter { $0.changesState }.map { $0.name }) == Self.changing)
    }

    @Test("openrpc.json lists 1011 for exactly the methods that change the state, and 1010 for snapshot")
    func openRPCListsTheNewErrors() throws {
        let text = try String(contentsOf: MethodDescriptorTests.root.appendingPathComponent("Protocol/openrpc.json"), encoding: .utf8)
        let document = try IndependentJSON.parse(text)
        #expect(document[pointer: "/components/errors/StateNotWritable/code"] == 1011)
        #expect(document[pointer: "/components/errors/SnapshotFailed/code"] == 1010)
        for method in try #require(document[pointer: "/methods"]?.arrayValue) {
            let name = method[pointer: "/name"]?.stringValue ?? ""
            let errors = (method[pointer: "/errors"]?.arrayValue ?? []).compactMap { $0[pointer: "/$ref"]?.stringValue }
            #expect(
                errors.contains("#/components/errors/StateNotWritable") == Self.changing.contains(name), "\(name): \(errors)")
            #expect(errors.contains("#/components/errors/SnapshotFailed") == (name == "snapshot"), "\(name)")
        }
    }

    /// A processor whose refusal is `refusal`'s value at each request.
    static func processor(refusal: NIOLockedValueBox<String?>) -> RequestProcessor {
        var environment = MethodEnvironment(
            state: SharedState(HeraldState(configuration: CoreConfiguration())),
            clock: ManualClock(),
            statistics: ServerStatistics(),
            openRPCDocument: ["openrpc": "1.3.2"]
        )
        environment.changesRefused = { refusal.withLockedValue { $0 } }
        return RequestProcessor(
            methods: .herald(environment, subscriptions: FocusSubscriptions(registry: ConnectionRegistry())),
            limits: RequestLimits(),
            statistics: ServerStatistics(),
            recorder: CollectingRecorder()
        )
    }

    static func respond(_ processor: RequestProcessor, _ method: String, _ params: String) throws -> JSONValue {
        let person = RequestContext(caller: Caller(uid: 1000, gid: 1000, pid: 43, isAdministrator: false))
        let text = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
        let bytes = try #require(processor.process(text: Array(text.utf8), context: person))
        return try IndependentJSON.parse(String(decoding: bytes.dropLast(), as: UTF8.self))
    }

    static let donation =
        #"{"app":"org.example.chat","interaction":{"identifier":"m1","direction":"incoming","#
        + #""intent":{"type":"sendMessage","sender":{"displayName":"Ann"},"conversationIdentifier":"c1"}}}"#

    @Test("A change is refused with 1011 and the reason while reads answer; taken again once the refusal ends")
    func refusedThenTaken() throws {
        let refusal = NIOLockedValueBox<String?>(nil)
        let processor = Self.processor(refusal: refusal)
        let taken = try Self.respond(processor, "donate", Self.donation)
        #expect(taken[pointer: "/result/identifier"] == "m1", "\(taken)")

        refusal.withLockedValue { $0 = "Herald cannot write its state to /var/lib/herald (No space left on device)." }
        let refused = try Self.respond(processor, "donate", Self.donation.replacingOccurrences(of: "m1", with: "m2"))
        #expect(refused[pointer: "/error/code"] == 1011, "\(refused)")
        #expect(refused[pointer: "/error/message"] == "State not writable")
        #expect(refused[pointer: "/error/data/reason"]?.stringValue?.contains("/var/lib/herald") == true)
        #expect(refused[pointer: "/error/data/pointer"] == nil)
        // A read answers; a client's own mistake is still reported as such.
        let read = try Self.respond(processor, "list-conversations", "{}")
        #expect(read[pointer: "/result"] != nil, "\(read)")
        let invalid = try Self.respond(processor, "donate", #"{"app":"org.example.chat"}"#)
        #expect(invalid[pointer: "/error/code"] == -32602, "\(invalid)")

        refusal.withLockedValue { $0 = nil }
        let again = try Self.respond(processor, "donate", Self.donation.replacingOccurrences(of: "m1", with: "m2"))
        #expect(again[pointer: "/result/identifier"] == "m2", "\(again)")
    }
}
