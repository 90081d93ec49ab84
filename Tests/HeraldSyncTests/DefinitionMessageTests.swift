import Foundation
import HeraldProtocol
import HeraldSync
import Testing

/// The Focus definition message's reader: what it takes, what it refuses and why, its
/// topic level, and that what herald-sync writes reads back as itself.
struct DefinitionMessageTests {
    static let evening = DefinitionMessage(
        name: "Evening",
        focus: [
            "name": "Evening", "allowedApps": .array(["org.example.chat"]),
            "schedules": .array([.object(["start": "20:00", "end": "23:00"])]),
        ],
        account: "ann", host: "desk", time: HybridTimestamp(milliseconds: 1_795_923_857_323, counter: 1)
    )

    @Test func writtenMessageReadsBackAsItself() throws {
        #expect(try DefinitionMessage.read(Self.evening.encoded()) == Self.evening)
        var deleted = Self.evening
        deleted.focus = nil
        #expect(try DefinitionMessage.read(deleted.encoded()) == deleted)
        #expect(String(decoding: deleted.encoded(), as: UTF8.self).contains(#""focus":null"#))
    }

    @Test func aNameIsOneTopicLevel() {
        #expect(DefinitionMessage.topicLevel("Work") == "Work")
        #expect(DefinitionMessage.topicLevel("a/b+c#d%e") == "a%2Fb%2Bc%23d%25e")
    }

    @Test(arguments: [
        (#"{"focus":null,"account":"ann","host":"a","hlc":{"ms":1,"counter":0}}"#, "/name must be"),
        (#"{"name":"W","account":"ann","host":"a","hlc":{"ms":1,"counter":0}}"#, "/focus must be"),
        (#"{"name":"W","focus":3,"account":"ann","host":"a","hlc":{"ms":1,"counter":0}}"#, "/focus must be"),
        (#"{"name":"W","focus":{"name":"X"},"account":"ann","host":"a","hlc":{"ms":1,"counter":0}}"#, "/focus/name must be /name"),
        (#"{"name":"W","focus":{"name":"W","until":"2026-01-01T00:00:00Z"},"account":"ann","host":"a","hlc":{"ms":1,"counter":0}}"#, "/focus/until"),
        (#"{"name":"W","focus":null,"host":"a","hlc":{"ms":1,"counter":0}}"#, "/account must be"),
        (#"{"name":"W","focus":null,"account":"ann","host":"a","hlc":{"ms":-1,"counter":0}}"#, "/hlc must be"),
        (#"{"name":"W","focus":null,"account":"ann","host":"a","hlc":{"ms":1,"counter":0},"x":1}"#, "/x is not a known member"),
        ("[]", "not a JSON object"),
        ("{", "not JSON"),
    ])
    func refusesWithTheMemberAtFault(text: String, reason: String) {
        let refusal = #expect(throws: FocusMessage.Refusal.self) { try DefinitionMessage.read(Array(text.utf8)) }
        #expect(refusal?.description.contains(reason) == true, "\(String(describing: refusal))")
    }

    @Test func refusesPastTheSizeBoundBeforeReading() {
        let long = Array(repeating: UInt8(ascii: " "), count: DefinitionMessage.maximumBytes + 1)
        let refusal = #expect(throws: FocusMessage.Refusal.self) { try DefinitionMessage.read(long) }
        #expect(refusal?.description.contains("more than \(DefinitionMessage.maximumBytes)") == true)
    }
}
