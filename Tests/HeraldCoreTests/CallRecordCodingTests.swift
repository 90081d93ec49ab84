import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// A call's `callRecordToCallBack` passes through a snapshot as it was donated — member
/// order and duplicate names included — so that a retry after a restart is still a retry.
@Suite struct CallRecordCodingTests {
    typealias F = Fixtures

    static func call(_ identifier: String, record: JSONValue) -> Interaction {
        Interaction(
            identifier: identifier,
            direction: .incoming,
            intent: .startCall(StartCallIntent(contacts: [F.bo], callRecordToCallBack: record))
        )
    }

    @Test func aRecordComesBackWholeAndARetryAfterARestartIsARetry() throws {
        var state = F.state()
        let large = JSONValue.object(JSONObject((0..<2000).map { .init(key: "k\($0)", value: [.number(JSONNumber($0)), ["n": nil]]) }))
        let duplicates = try JSONParser.parse(#"{"a":1,"b":{"c":true,"c":false},"a":2}"#)
        try state.donate(Self.call("k1", record: large))
        try state.donate(Self.call("k2", record: duplicates))
        var restored = try BinaryStateDecoder().decode(HeraldState.self, from: BinaryStateEncoder().encode(state))
        restored.configuration = state.configuration
        let key = try #require(restored.interactions.key(uid: F.user.uid, app: F.app, identifier: "k2"))
        guard case .startCall(let call)? = restored.interactions[key]?.interaction.intent else {
            Issue.record("k2 is not a call")
            return
        }
        #expect(call.callRecordToCallBack?.compactText == duplicates.compactText)
        #expect(ruleError { try restored.donate(Self.call("k1", record: large)) } == nil)
        #expect(ruleError { try restored.donate(Self.call("k2", record: duplicates)) } == nil)
        #expect(ruleError { try restored.donate(Self.call("k2", record: ["a": 1])) }?.code == .identifierConflict)
    }

    @Test func aRecordInTheEarlierFormIsStillRead() throws {
        // Objects were keyed containers of their own names before.
        struct Earlier: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: Key(stringValue: "a")!)
                try container.encode("x", forKey: Key(stringValue: "b")!)
            }
        }
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let bytes = try BinaryStateEncoder().encode(Earlier())
        let value = try BinaryStateDecoder().decode(JSONValue.self, from: bytes)
        #expect(value == ["a": 1, "b": "x"])
    }
}
