import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31: the person mutes a conversation and marks another priority with heraldctl;
/// the real heraldd delivers the muted one's messages quietly and lets the priority one's
/// through a Focus, each decision saying why, and one uid never sees another's.
@Suite("Conversations the person controls, end to end")
struct ConversationControlEndToEndTests {
    static func message(_ id: String, conversation: String, sender: String = "Ann") -> JSONValue {
        [
            "app": "org.example.chat",
            "interaction": [
                "identifier": .string(id), "direction": "incoming",
                "intent": ["type": "sendMessage", "sender": ["displayName": .string(sender)], "conversationIdentifier": .string(conversation)],
            ],
        ]
    }

    static func codes(_ response: JSONValue?) -> [String] {
        response?[pointer: "/result/delivery/reasons"]?.arrayValue?.compactMap { $0[pointer: "/code"]?.stringValue } ?? []
    }

    @Test("heraldctl mutes one conversation and marks another priority: quiet with conversationMuted, through a Focus with priorityConversation")
    func muteAndPriority() throws {
        let journal = JournalReader.isAvailable
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", journal ? "journal" : "none"])
        let socket = ["--socket", herald.socketPath]
        let muted = try Heraldctl.run(["conversations", "mute", "org.example.chat", "c-trip", "--for", "1h"] + socket)
        #expect(muted.stdout.hasPrefix("org.example.chat c-trip: muted until "), "\(muted)")
        let client = try herald.connect()
        try client.result("donate", Self.message("m-1", conversation: "c-trip"))
        let quiet = try client.call("update-content", ["app": "org.example.chat", "interactionIdentifier": "m-1", "content": ["body": "Trip?"]])
        #expect(quiet[pointer: "/result/delivery/presentation"] == "quiet", "\(quiet.compactText)")
        #expect(quiet[pointer: "/result/delivery/sound"] == false && quiet[pointer: "/result/delivery/lightsScreen"] == false)
        #expect(Self.codes(quiet) == ["conversationMuted"], "\(quiet.compactText)")
        #expect(quiet[pointer: "/result/delivery/reasons/0/message"]?.stringValue?.contains("whatever Focus is on") == true)

        let priority = try Heraldctl.run(["conversations", "priority", "org.example.chat", "c-ann"] + socket)
        #expect(priority.stdout == "org.example.chat c-ann: priority\n", "\(priority)")
        _ = try Heraldctl.run(["focus", "on", "Work"] + socket)
        try client.result("donate", Self.message("m-2", conversation: "c-ann"))
        let through = try client.call("update-content", ["app": "org.example.chat", "interactionIdentifier": "m-2", "content": ["body": "Now?"]])
        #expect(Self.codes(through) == ["priorityConversation", "delivered"], "\(through.compactText)")
        #expect(through[pointer: "/result/delivery/presentation"] == "alert" && through[pointer: "/result/delivery/breaksThroughFocus"] == true)
        try client.result("donate", Self.message("m-3", conversation: "c-other"))
        let held = try client.call("update-content", ["app": "org.example.chat", "interactionIdentifier": "m-3", "content": ["body": "Hm"]])
        #expect(Self.codes(held) == ["silencedByFocus"], "another conversation stays silenced: \(held.compactText)")

        let listed = try Heraldctl.run(["conversations", "list"] + socket)
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0] == "org.example.chat c-ann: priority" && lines[1].hasPrefix("org.example.chat c-trip: muted until "), "\(listed)")
        let unmuted = try Heraldctl.run(["conversations", "unmute", "org.example.chat", "c-trip"] + socket)
        #expect(unmuted.stdout == "org.example.chat c-trip: neither muted nor priority\n", "\(unmuted)")
        let page = try client.call("list-conversations", ["limit": 5])
        #expect(page[pointer: "/result/conversations"]?.arrayValue?.count == 1, "\(page.compactText)")

        let refused = try client.call("set-conversation", ["app": "org.example.chat", "conversationIdentifier": "c-ann"])
        #expect(refused[pointer: "/error/code"] == -32602 && refused[pointer: "/error/data/pointer"] == "/mute", "\(refused.compactText)")
        let both = try client.call(
            "set-conversation", ["app": "org.example.chat", "conversationIdentifier": "c-ann", "mute": ["seconds": 60, "forever": true]])
        #expect(both[pointer: "/error/data/pointer"] == "/mute/forever", "\(both.compactText)")

        guard journal else { return }
        let reader = JournalReader(pid: herald.process.pid)
        let changes = try reader.waitForEntries(count: 3, matching: ["MESSAGE_ID=73504831ebc94bf3b7f2528cafb9c933"])
        #expect(changes.map { $0.field("HERALD_CONVERSATION_ID") } == ["c-trip", "c-ann", "c-trip"])
        #expect(changes.first?.field("HERALD_CONVERSATION_CONTROL")?.hasPrefix("mute=20") == true, "mute= its end")
        #expect(changes.dropFirst().map { $0.field("HERALD_CONVERSATION_CONTROL") } == ["priority=true", "mute=off"])
        #expect(changes.allSatisfy { $0.field("HERALD_SETTING_UID") == "\(getuid())" })
        let mutedEntry = try reader.waitForEntries(count: 1, matching: ["HERALD_REASON=conversationMuted"])
        #expect(mutedEntry.first?.field("HERALD_CONVERSATION_ID") == "c-trip" && mutedEntry.first?.field("HERALD_PRESENTATION") == "quiet")
        #expect(!(try reader.entries().raw.contains("Trip?")), "no message content in the journal")
    }

    @Test("One uid neither sees nor changes another's conversations", .enabled(if: getuid() == 0, "needs root to connect as other uids"))
    func perUID() throws {
        let herald = try FocusPerUIDEndToEndTests.startOpenToEveryone()
        let client = try herald.connect()
        try client.result("set-conversation", ["app": "org.example.chat", "conversationIdentifier": "c-trip", "mute": ["forever": true]])
        let donate = #"{"jsonrpc":"2.0","id":2,"method":"donate","params":{"app":"org.example.chat","interaction":{"identifier":"m-1","direction":"incoming","intent":{"type":"sendMessage","sender":{"displayName":"Ann"},"conversationIdentifier":"c-trip"}}}}"#
        let responses = try FocusPerUIDEndToEndTests.call(
            as: 60001,
            [
                #"{"jsonrpc":"2.0","id":1,"method":"list-conversations"}"#,
                donate,
                #"{"jsonrpc":"2.0","id":3,"method":"update-content","params":{"app":"org.example.chat","interactionIdentifier":"m-1","content":{"body":"Trip?"}}}"#,
                #"{"jsonrpc":"2.0","id":4,"method":"list-conversations","params":{"uid":0}}"#,
                #"{"jsonrpc":"2.0","id":5,"method":"set-conversation","params":{"app":"org.example.chat","conversationIdentifier":"c-trip","unmute":true,"uid":0}}"#,
            ],
            socket: herald.socketPath
        )
        #expect(responses.count == 5, "\(responses)")
        #expect(responses[0][pointer: "/result/uid"] == 60001 && responses[0][pointer: "/result/conversations"] == [], "\(responses[0])")
        #expect(Self.codes(responses[2]) == ["delivered"], "uid 0's mute is not 60001's: \(responses[2])")
        for response in responses.suffix(2) {
            #expect(response[pointer: "/error/code"] == 1006 && response[pointer: "/error/data/pointer"] == "/uid", "\(response)")
        }
        let mine = try client.call("list-conversations")
        #expect(mine[pointer: "/result/conversations/0/muted"] == true, "still muted: \(mine.compactText)")
        let theirs = try client.call("list-conversations", ["uid": 60001])
        #expect(theirs[pointer: "/result/conversations"] == [], "an administrator may read another's")
    }

    /// Issue 49, finding 10: 1,000 conversations of 16 KB identifiers of combining marks
    /// held the state's lock 30-117 ms a `set-conversation` and 185 ms a
    /// `list-conversations`. An identifier past 256 bytes is refused with the limit; 1,000
    /// of 256 bytes of marks are set and listed whole, in byte order.
    @Test("A conversation identifier past 256 bytes is refused; 1,000 of 256 bytes of marks list whole")
    func identifierBytes() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        let marks = "a" + String(repeating: "\u{301}", count: 8_000)
        let refused = try client.call("set-conversation", ["app": "org.example.chat", "conversationIdentifier": .string(marks), "priority": true])
        #expect(refused[pointer: "/error/code"] == .number(JSONNumber(-32602)), "\(refused.compactText.prefix(300))")
        #expect(refused[pointer: "/error/data/pointer"] == "/conversationIdentifier" && refused[pointer: "/error/data/limit"] == .number(JSONNumber(256)))
        #expect(refused[pointer: "/error/data/reason"]?.stringValue?.contains("at most 256") == true)
        // Each identifier: a number, then marks up to 256 bytes.
        let identifiers = (0..<1_000).map { index in
            let head = String(format: "%04d", index)
            return head + String(repeating: "\u{301}", count: (256 - head.utf8.count) / 2)
        }
        for identifier in identifiers {
            try client.result("set-conversation", ["app": "org.example.chat", "conversationIdentifier": .string(identifier), "priority": true])
        }
        var listed: [String] = []
        var cursor: JSONValue?
        repeat {
            var params: JSONValue = ["limit": 400]
            if let cursor { params = ["limit": 400, "cursor": cursor] }
            let page = try client.call("list-conversations", params)
            listed += page[pointer: "/result/conversations"]?.arrayValue?.compactMap { $0[pointer: "/conversationIdentifier"]?.stringValue } ?? []
            cursor = page[pointer: "/result/nextCursor"]
        } while cursor != nil && listed.count <= identifiers.count
        #expect(listed.count == identifiers.count && listed.map { Array($0.utf8) } == identifiers.map { Array($0.utf8) })
    }
}
