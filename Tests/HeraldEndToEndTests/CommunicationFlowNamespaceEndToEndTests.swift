import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 3, end to end: delete-interactions, suggest-people, and one uid's isolation from
/// another's interactions.
@Suite("Communication flow: deletion, suggestions and isolation, end to end")
struct CommunicationFlowNamespaceEndToEndTests {
    static let app = "org.example.chat"
    static let ann = #"{"handle":{"value":"ann@example.org","type":"emailAddress"},"displayName":"Ann Lee"}"#
    static let bo = #"{"handle":{"value":"+1 555 0101","type":"phoneNumber"},"displayName":"Bo"}"#
    static let cy = #"{"handle":{"value":"cy@example.org","type":"emailAddress"},"displayName":"Cy"}"#
    static let dee = #"{"handle":{"value":"dee@example.org","type":"emailAddress"},"displayName":"Dee"}"#

    private func incoming(_ identifier: String, group: String? = nil, sender: String = ann) -> JSONValue {
        let groupMember = group.map { #""groupIdentifier":"\#($0)","# } ?? ""
        return json(
            #"{"identifier":"\#(identifier)",\#(groupMember)"direction":"incoming","intent":{"type":"sendMessage","sender":\#(sender),"conversationIdentifier":"c-1"}}"#
        )
    }

    private func outgoing(_ to: String, date: String) -> JSONValue {
        json(
            #"{"date":"\#(date)","direction":"outgoing","intent":{"type":"sendMessage","recipients":[\#(to)],"conversationIdentifier":"c-out"}}"#
        )
    }

    private func update(_ identifier: String) -> JSONValue {
        ["app": .string(Self.app), "interactionIdentifier": .string(identifier), "content": ["body": "Hi"]]
    }

    @Test("delete-interactions by identifiers, by groupIdentifier and all; then update-content is 1001")
    func deleteInteractions() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        for (identifier, group) in [("m-1", "g-1"), ("m-2", "g-1"), ("m-3", nil), ("m-4", nil), ("m-5", "g-2")] as [(String, String?)] {
            try client.result("donate", ["app": .string(Self.app), "interaction": incoming(identifier, group: group)])
        }
        try client.result("donate", ["app": "org.example.other", "interaction": incoming("m-4")])

        #expect(try client.result("delete-interactions", ["app": .string(Self.app), "identifiers": ["m-3", "m-404"]]) == ["deleted": 1])
        #expect(describeError(try client.call("update-content", update("m-3"))) == "1001 /interactionIdentifier")
        #expect(try client.result("delete-interactions", ["app": .string(Self.app), "identifiers": ["m-3"]]) == ["deleted": 0])
        #expect(try client.result("delete-interactions", ["app": .string(Self.app), "groupIdentifier": "g-1"]) == ["deleted": 2])
        for identifier in ["m-1", "m-2"] {
            #expect(describeError(try client.call("update-content", update(identifier))) == "1001 /interactionIdentifier")
        }
        #expect(try client.call("update-content", update("m-4"))[pointer: "/result/content/title"] == "Ann Lee")
        #expect(try client.result("delete-interactions", ["app": .string(Self.app), "all": true]) == ["deleted": 2])
        for identifier in ["m-4", "m-5"] {
            #expect(describeError(try client.call("update-content", update(identifier))) == "1001 /interactionIdentifier")
        }
        // The other app's m-4 is untouched.
        let other = try client.call(
            "update-content", ["app": "org.example.other", "interactionIdentifier": "m-4", "content": ["body": "Hi"]])
        #expect(other[pointer: "/result/content/title"] == "Ann Lee")
        // A deleted identifier may be donated afresh.
        #expect(
            try client.result("donate", ["app": .string(Self.app), "interaction": incoming("m-1", sender: Self.bo)])[pointer: "/identifier"]
                == "m-1")
        #expect(try client.call("update-content", update("m-1"))[pointer: "/result/content/title"] == "Bo")
    }

    @Test("delete-interactions needs exactly one selector")
    func deleteSelectors() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        // Nothing given: at the first of the choice (issue 45, item 11).
        #expect(describeError(try client.call("delete-interactions", ["app": .string(Self.app)])) == "-32602 /identifiers")
        #expect(describeError(try client.call("delete-interactions", ["app": .string(Self.app), "all": false])) == "-32602 /all")
        let two = try client.call("delete-interactions", ["app": .string(Self.app), "identifiers": ["m-1"], "all": true])
        #expect(describeError(two) == "-32602 /all")
    }

    @Test("suggest-people ranks outgoing donations only; incoming ones never appear")
    func suggestPeople() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        let donations: [JSONValue] = [
            outgoing(Self.ann, date: "2026-11-20T10:00:00Z"),
            outgoing(Self.ann, date: "2026-11-20T11:00:00Z"),
            outgoing(Self.bo, date: "2026-11-18T10:00:00Z"),
            json(#"{"date":"2026-11-21T09:00:00Z","direction":"outgoing","intent":{"type":"startCall","contacts":[\#(Self.cy)]}}"#),
            json(
                #"{"date":"2026-11-21T12:00:00Z","direction":"incoming","intent":{"type":"sendMessage","sender":\#(Self.dee),"recipients":[\#(Self.bo)],"conversationIdentifier":"c-in"}}"#
            ),
            json(#"{"date":"2026-11-21T12:00:00Z","direction":"incoming","intent":{"type":"startCall","contacts":[\#(Self.dee)]}}"#),
        ]
        for interaction in donations {
            try client.result("donate", ["app": .string(Self.app), "interaction": interaction])
        }
        let people = try #require(client.result("suggest-people", [:])[pointer: "/people"]?.arrayValue)
        #expect(people.map { $0[pointer: "/person/displayName"]?.stringValue } == ["Ann Lee", "Cy", "Bo"])
        #expect(people.first?[pointer: "/person"] == json(Self.ann))
        #expect(people.map { $0[pointer: "/count"] } == [2, 1, 1])
        #expect(people.map { $0[pointer: "/messageCount"] } == [2, 0, 1])
        #expect(people.map { $0[pointer: "/callCount"] } == [0, 1, 0])
        #expect(
            people.map { $0[pointer: "/lastDate"] }
                == ["2026-11-20T11:00:00.000Z", "2026-11-21T09:00:00.000Z", "2026-11-18T10:00:00.000Z"]
        )
        let scores = people.compactMap { $0[pointer: "/score"]?.numberValue?.doubleValue }
        #expect(scores.count == 3 && scores == scores.sorted(by: >) && scores.allSatisfy { $0 > 0 })
        let limited = try #require(client.result("suggest-people", ["limit": 1])[pointer: "/people"]?.arrayValue)
        #expect(limited.count == 1)
        #expect(describeError(try client.call("suggest-people", ["limit": 0])) == "-32602 /limit")
        // Deleted outgoing donations stop making suggestions.
        try client.result("delete-interactions", ["app": .string(Self.app), "all": true])
        #expect(try client.result("suggest-people", [:]) == json(#"{"people":[]}"#))
    }

    @Test(
        "Another uid cannot see, change or delete root's interactions, nor learn of them",
        .enabled(if: getuid() == 0, "needs root to connect as another uid")
    )
    func anotherUidsIsolation() throws {
        let herald = try HeraldProcess.openToEveryone()
        let root = try herald.connect()
        try root.result("donate", ["app": .string(Self.app), "interaction": incoming("m-1")])
        try root.result("donate", ["app": .string(Self.app), "interaction": outgoing(Self.ann, date: "2026-11-21T10:00:00Z")])

        let content: JSONValue = ["body": "Hi"]
        let responses = try callAsUser(
            65534,
            [
                request("update-content", ["app": .string(Self.app), "interactionIdentifier": "m-1", "content": content]),
                request("update-content", ["app": .string(Self.app), "interactionIdentifier": "m-1", "content": content]),
                request("update-content", ["app": .string(Self.app), "interactionIdentifier": "m-404", "content": content]),
                request("delete-interactions", ["app": .string(Self.app), "identifiers": ["m-1"]]),
                request("delete-interactions", ["app": .string(Self.app), "all": true]),
                request("suggest-people", [:]),
                // Its own m-1, a different interaction: no conflict with root's.
                request("donate", ["app": .string(Self.app), "interaction": incoming("m-1", sender: Self.bo)]),
                request("update-content", ["app": .string(Self.app), "interactionIdentifier": "m-1", "content": content]),
                request("donate", ["app": .string(Self.app), "interaction": outgoing(Self.cy, date: "2026-11-21T11:00:00Z")]),
            ],
            socket: herald.socketPath
        )
        try #require(responses.count == 9, "\(responses)")
        let rootsID = responses[0]
        let neverID = responses[2]
        #expect(describeError(rootsID) == "1001 /interactionIdentifier")
        // Exactly the same error as for an identifier never donated (but for the identifier named).
        let rootsReason = rootsID[pointer: "/error/data/reason"]?.stringValue
        let neverReason = neverID[pointer: "/error/data/reason"]?.stringValue?.replacingOccurrences(of: "m-404", with: "m-1")
        #expect(rootsReason == neverReason)
        #expect(rootsID[pointer: "/error/message"] == neverID[pointer: "/error/message"])
        #expect(rootsID[pointer: "/error/data/pointer"] == neverID[pointer: "/error/data/pointer"])
        #expect(rootsID[pointer: "/error/data"]?.objectValue?.keys.sorted() == neverID[pointer: "/error/data"]?.objectValue?.keys.sorted())
        #expect(responses[1][pointer: "/error"] == rootsID[pointer: "/error"])
        #expect(responses[3][pointer: "/result"] == ["deleted": 0])
        #expect(responses[4][pointer: "/result"] == ["deleted": 0])
        // Its own suggestions only: it sent nothing yet (root's outgoing donation is root's).
        #expect(responses[5][pointer: "/result"] == ["people": []], "\(responses[5])")
        #expect(responses[6][pointer: "/result/identifier"] == "m-1")
        #expect(responses[7][pointer: "/result/content/title"] == "Bo")
        #expect(responses[8][pointer: "/result/identifier"]?.stringValue?.isEmpty == false)

        // Root's interaction is untouched, and still its own.
        #expect(try root.call("update-content", update("m-1"))[pointer: "/result/content/title"] == "Ann Lee")
        // Suggestions, narrowed by uid, see only that uid's outgoing donations.
        let rootsPeople = try root.result("suggest-people", ["uid": 0])[pointer: "/people"]?.arrayValue ?? []
        #expect(rootsPeople.map { $0[pointer: "/person/displayName"] } == ["Ann Lee"])
        let nobodysPeople = try root.result("suggest-people", ["uid": 65534])[pointer: "/people"]?.arrayValue ?? []
        #expect(nobodysPeople.map { $0[pointer: "/person/displayName"] } == ["Cy"])

        // Its deletion of all its own interactions counts only its own two.
        let cleanup = try callAsUser(
            65534, [request("delete-interactions", ["app": .string(Self.app), "all": true])], socket: herald.socketPath)
        #expect(cleanup.first?[pointer: "/result"] == ["deleted": 2])
        #expect(try root.result("delete-interactions", ["app": .string(Self.app), "all": true]) == ["deleted": 2])
    }

    @Test(
        "Another uid's Focus authorization and capabilities are its own",
        .enabled(if: getuid() == 0, "needs root to connect as another uid")
    )
    func anotherUidsSettings() throws {
        let herald = try HeraldProcess.openToEveryone()
        let root = try herald.connect()
        try root.result("set-focus-authorization", ["app": .string(Self.app), "status": "authorized"])
        try root.result("set-capabilities", ["app": .string(Self.app), "critical": true])
        let responses = try callAsUser(
            65534,
            [
                request("request-focus", ["app": .string(Self.app)]),
                request("update-content", ["app": .string(Self.app), "content": ["interruptionLevel": "critical", "body": "!"]]),
                request("set-focus-authorization", ["app": .string(Self.app), "uid": 0, "status": "denied"]),
            ],
            socket: herald.socketPath
        )
        try #require(responses.count == 3, "\(responses)")
        #expect(responses[0][pointer: "/result"] == json(#"{"authorizationStatus":"notDetermined","focusStatus":null}"#))
        #expect(describeError(responses[1]) == "1005 /content/interruptionLevel")
        // Its own uid's decisions are its own; root's are not.
        #expect(describeError(responses[2]) == "1006 /uid")
        // The administrator decides for that uid.
        let granted = try root.result("set-focus-authorization", ["app": .string(Self.app), "uid": 65534, "status": "authorized"])
        #expect(granted == json(#"{"app":"org.example.chat","uid":65534,"status":"authorized"}"#))
        let after = try callAsUser(65534, [request("request-focus", ["app": .string(Self.app)])], socket: herald.socketPath)
        #expect(after.first?[pointer: "/result"] == json(#"{"authorizationStatus":"authorized","focusStatus":{"isFocused":false}}"#))
    }
}
