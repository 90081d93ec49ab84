import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 13's strict parameters, over the socket: the typos that used to succeed are
/// -32602 with the member's pointer and "did you mean …?"; an allowed person who can never
/// match is refused, one given only by an identifier is accepted and matches; an unknown
/// method names the closest one.
@Suite("Strict parameters, end to end")
struct StrictParamsEndToEndTests {
    static let app = "org.example.chat"

    private func expectRefused(
        _ response: JSONValue, pointer: String, suggestion: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response[pointer: "/error/code"] == .number(JSONNumber(-32602)), "\(response.compactText)", sourceLocation: sourceLocation)
        #expect(response[pointer: "/error/data/pointer"] == .string(pointer), "\(response.compactText)", sourceLocation: sourceLocation)
        let reason = response[pointer: "/error/data/reason"]?.stringValue ?? ""
        if let suggestion {
            #expect(reason.hasSuffix("did you mean `\(suggestion)`?"), "\(reason)", sourceLocation: sourceLocation)
        }
    }

    @Test("Misspelt members are refused: set-focus alowedPeople, set-capabilities critcal, update-content titel")
    func misspeltMembers() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let focus = try client.call("set-focus", json(#"{"focus":{"name":"Work","alowedPeople":[{"handle":{"value":"ann@example.org"}}]}}"#))
        expectRefused(focus, pointer: "/focus/alowedPeople", suggestion: "allowedPeople")
        // Refused, so no Focus went on: a plain notification is still delivered.
        let plain = try client.result("update-content", ["app": .string(Self.app), "content": ["body": "hello"]])
        #expect(plain[pointer: "/delivery/presentation"] == "alert", "\(plain.compactText)")

        let capabilities = try client.call("set-capabilities", ["app": .string(Self.app), "critcal": true])
        expectRefused(capabilities, pointer: "/critcal", suggestion: "critical")
        let critical = try client.call("update-content", ["app": .string(Self.app), "content": ["body": "x", "interruptionLevel": "critical"]])
        #expect(critical[pointer: "/error/message"] == "Capability required", "the capability was not granted: \(critical.compactText)")

        let content = try client.call("update-content", ["app": .string(Self.app), "content": ["titel": "Lunch?", "body": "at noon"]])
        expectRefused(content, pointer: "/content/titel", suggestion: "title")
    }

    @Test("Open-ended members stay open: userInfo, filterCriteria, an APNs payload's own members")
    func openEndedMembers() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let content = try client.result(
            "update-content",
            json(#"{"app":"org.example.chat","content":{"body":"b","userInfo":{"anything":1},"filterCriteria":{"work":true}}}"#)
        )
        #expect(content[pointer: "/content/userInfo/anything"] == 1)
        let payload = try client.result(
            "update-content",
            json(#"{"app":"org.example.chat","payload":{"aps":{"alert":"hi","mutable-content":1},"acme-message-id":"x-1"}}"#)
        )
        #expect(payload[pointer: "/content/userInfo/acme-message-id"] == "x-1", "\(payload.compactText)")
    }

    @Test("An allowed person who can never match is refused; one given only by contactIdentifier is accepted and matches")
    func allowedPeopleIdentity() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let nameOnly = try client.call("set-focus", json(#"{"focus":{"name":"Work","allowedPeople":[{"displayName":"Bo"}]}}"#))
        expectRefused(nameOnly, pointer: "/focus/allowedPeople/0", suggestion: nil)
        #expect(nameOnly[pointer: "/error/data/reason"]?.stringValue?.contains("contactIdentifier") == true)

        let focus = try client.result("set-focus", json(#"{"focus":{"name":"Work","allowedPeople":[{"contactIdentifier":"contact-42"}]}}"#))
        #expect(focus[pointer: "/focus/allowedPeople/0/contactIdentifier"] == "contact-42")
        try client.result("set-focus", json(#"{"focus":{"name":"Work","allowedPeople":[{"customIdentifier":"u-7"}]}}"#))
        try client.result("set-focus", json(#"{"focus":{"name":"Work","allowedPeople":[{"contactIdentifier":"contact-42"}]}}"#))
        for (identifier, contact) in [("m-1", "contact-42"), ("m-2", "contact-7")] {
            let sender = #"{"displayName":"Bo","contactIdentifier":"\#(contact)"}"#
            try client.result(
                "donate",
                json(
                    #"{"app":"org.example.chat","interaction":{"identifier":"\#(identifier)","direction":"incoming","intent":{"type":"sendMessage","conversationIdentifier":"c-\#(identifier)","sender":\#(sender)}}}"#
                )
            )
        }
        let allowed = try client.result(
            "update-content", ["app": .string(Self.app), "interactionIdentifier": "m-1", "content": ["body": "hi"]])
        #expect(describeDelivery(allowed) == "alert sound lightsScreen breaksThroughFocus announce [senderAllowedByFocus, delivered]")
        let other = try client.result(
            "update-content", ["app": .string(Self.app), "interactionIdentifier": "m-2", "content": ["body": "hi"]])
        #expect(describeDelivery(other) == "quiet [silencedByFocus]")
    }

    @Test("An unknown method names the closest method, when one is close")
    func unknownMethodSuggestion() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let close = try client.call("update-contents", ["app": .string(Self.app)])
        #expect(close[pointer: "/error/code"] == .number(JSONNumber(-32601)))
        #expect(close[pointer: "/error/data/reason"]?.stringValue?.contains("did you mean `update-content`?") == true, "\(close.compactText)")
        let far = try client.call("frobnicate")
        #expect(far[pointer: "/error/code"] == .number(JSONNumber(-32601)))
        #expect(far[pointer: "/error/data/reason"]?.stringValue?.contains("did you mean") == false, "\(far.compactText)")
    }
}
