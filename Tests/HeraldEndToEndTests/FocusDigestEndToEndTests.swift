import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31, "what you missed": when a Focus ends, the uid's presenter receives one
/// `focus-digest` of what it silenced; `get-focus-digest` and `heraldctl focus missed` read it.
@Suite("Focus digest, end to end")
struct FocusDigestEndToEndTests {
    static let chat = "org.example.chat"
    static let mail = "org.example.mail"

    /// A message from `sender` in `conversation`, donated, then its notification.
    static func message(_ identifier: String, from sender: String, in conversation: String, client: UnixSocketClient) throws {
        try client.result(
            "donate",
            [
                "app": .string(chat),
                "interaction": [
                    "identifier": .string(identifier), "direction": "incoming",
                    "intent": ["type": "sendMessage", "sender": ["displayName": .string(sender)], "conversationIdentifier": .string(conversation)],
                ],
            ])
        try client.result(
            "update-content", ["app": .string(chat), "identifier": .string(identifier), "interactionIdentifier": .string(identifier), "content": ["body": "Lunch?"]])
    }

    /// Reads Work's running count (`total`), turns it off with heraldctl and returns the
    /// one digest the presenter gets, checked to be Work's, of `total`, turned off.
    static func turnOffWork(expecting total: Int, herald: HeraldProcess, presenter: UnixSocketClient, client: UnixSocketClient) throws -> JSONValue {
        let running = try client.call("get-focus-digest", [:])
        #expect(running[pointer: "/result/running/total"] == .number(JSONNumber(total)), "\(running.compactText)")
        #expect(running[pointer: "/result/digest"] == nil, "\(running.compactText)")
        let off = try Heraldctl.run(["focus", "off", "--socket", herald.socketPath])
        #expect(off.status == 0, "\(off)")
        let digest = try #require(try NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 10))
        #expect(digest[pointer: "/focus"] == "Work" && digest[pointer: "/endedBy"] == "turnedOff", "\(digest.compactText)")
        #expect(digest[pointer: "/total"] == .number(JSONNumber(total)), "\(digest.compactText)")
        return digest
    }

    @Test("Turned off by hand: one focus-digest to the presenter, get-focus-digest, heraldctl and the journal")
    func turnedOff() throws {
        let journal = JournalReader.isAvailable
        let herald = try HeraldProcess(.standalone, arguments: journal ? ["--log-target", "journal"] : ["--log-target", "none"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()
        try client.result("set-focus", ["focus": ["name": "Work"]])
        try Self.message("m-1", from: "Ann", in: "c-ann", client: client)
        try Self.message("m-2", from: "Ann", in: "c-ann", client: client)
        try client.result("update-content", ["app": .string(Self.mail), "identifier": "p-1", "content": ["title": "Invoice"]])
        let digest = try Self.turnOffWork(expecting: 3, herald: herald, presenter: presenter, client: client)
        #expect(digest[pointer: "/entries/0/conversationIdentifier"] == "c-ann" && digest[pointer: "/entries/0/count"] == 2)
        #expect(digest[pointer: "/entries/0/senders"] == ["Ann"])
        #expect(digest[pointer: "/entries/1/app"] == .string(Self.mail) && digest[pointer: "/entries/1/conversationIdentifier"] == nil)
        #expect(digest[pointer: "/startedAt"]?.stringValue != nil && digest[pointer: "/endedAt"]?.stringValue != nil)

        let read = try client.call("get-focus-digest", [:])
        #expect(read[pointer: "/result/digest"] == digest && read[pointer: "/result/running"] == nil, "\(read.compactText)")
        let missed = try Heraldctl.run(["focus", "missed", "--socket", herald.socketPath])
        #expect(missed.stdout.contains("While Work was on") && missed.stdout.contains("3 notifications silenced"), "\(missed)")
        #expect(missed.stdout.contains("2\t\(Self.chat): Ann") && missed.stdout.contains("1\t\(Self.mail)"), "\(missed)")
        let json = try Heraldctl.run(["focus", "missed", "--json", "--socket", herald.socketPath])
        #expect(try IndependentJSON.parse(json.stdout)[pointer: "/digest/total"] == 3, "\(json)")

        // A Focus that silences nothing sends nothing, and leaves the last digest.
        try client.result("set-focus", ["focus": ["name": "Sleep"]])
        try client.result("set-focus", ["focus": .null])
        try client.result("update-content", ["app": .string(Self.mail), "identifier": "p-2", "content": ["title": "Later"]])
        let none = (try? NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 1)) ?? nil
        #expect(none == nil, "\(String(describing: none))")
        #expect(try client.call("get-focus-digest", [:])[pointer: "/result/digest/focus"] == "Work")

        guard journal else { return }
        let entries = try JournalReader(pid: herald.process.pid).waitForEntries(count: 1, matching: ["MESSAGE_ID=39483fd088444ea2a3b0c7efc497153e"])
        #expect(entries.count == 1)
        #expect(entries.first?.field("HERALD_COUNT") == "3" && entries.first?.field("HERALD_FOCUS_DIGEST_CONVERSATIONS") == "1")
        #expect(entries.first?.field("HERALD_FOCUS_DIGEST_APPS") == "1" && entries.first?.field("HERALD_FOCUS_DIGEST_END") == "turnedOff")
        let raw = try JournalReader(pid: herald.process.pid).entries(matching: ["MESSAGE_ID=39483fd088444ea2a3b0c7efc497153e"]).raw
        #expect(!raw.contains("Ann") && !raw.contains(Self.mail), "no name and no app in the digest's entry")
    }

    @Test("A scheduled Focus whose window ends on the clock sends its digest")
    func scheduleEnds() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        formatter.timeZone = TimeZone.current
        let start = Date().addingTimeInterval(2)
        try client.result(
            "define-focus",
            ["focus": ["name": "Standup", "schedules": [["start": .string(formatter.string(from: start)), "end": .string(formatter.string(from: start + 3))]]]])
        var on = false
        let deadline = Date().addingTimeInterval(10)
        while !on, Date() < deadline {
            usleep(200_000)
            on = try client.call("get-focus", [:])[pointer: "/result/active/name"] == "Standup"
        }
        #expect(on)
        try Self.message("m-1", from: "Bo", in: "c-bo", client: client)
        let digest = try #require(try NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 15))
        #expect(digest[pointer: "/focus"] == "Standup" && digest[pointer: "/endedBy"] == "ended" && digest[pointer: "/total"] == 1, "\(digest.compactText)")
    }

    /// Issue 49, finding 7: names of one letter and 8,000 combining marks (one character
    /// each, 16 KB) made a digest of megabytes. Each name is now at most 256 bytes, so three
    /// conversations of five such senders stay far within the documented 70 KB.
    @Test("A digest of senders named with thousands of combining marks stays within its bytes")
    func combiningMarks() throws {
        // The presenter reads only at the end: room for the 15 deliveries of 32 KB before.
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--max-unread-bytes", "4194304"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()
        try client.result("set-focus", ["focus": ["name": "Work"]])
        let heavy = "a" + String(repeating: "\u{301}", count: 8_000)
        for conversation in 0..<3 {
            for sender in 0..<5 {
                try Self.message("m-\(conversation)-\(sender)", from: "\(sender)\(heavy)", in: "c-\(conversation)", client: client)
            }
        }
        let running = try client.call("get-focus-digest", [:])
        #expect(running[pointer: "/result/running/total"] == 15, "\(running.compactText.prefix(300))")
        #expect(running.compactText.utf8.count < 70_000, "\(running.compactText.utf8.count) bytes")
        #expect(running[pointer: "/result/running/entries/0/senders/0"]?.stringValue?.utf8.count ?? .max <= 256)
        try client.result("set-focus", ["focus": .null])
        let digest = try #require(try NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 10))
        #expect(digest[pointer: "/total"] == 15 && digest.compactText.utf8.count < 70_000, "\(digest.compactText.utf8.count) bytes")
    }

    /// Issue 45, item 1: the person's edit of the Focus that is on (heraldctl, as the issue
    /// tried it) pops no digest and loses no count; the one digest at `focus off` has all.
    @Test("Editing the Focus that is on continues it: one digest at its end, counting everything")
    func editContinues() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()
        let on = try Heraldctl.run(["focus", "on", "Work", "--allow", "ann@example.org", "--socket", herald.socketPath])
        #expect(on.status == 0, "\(on)")
        try Self.message("m-1", from: "Bob", in: "c-bob", client: client)
        try Self.message("m-2", from: "Bob", in: "c-bob", client: client)
        let edit = try Heraldctl.run(["focus", "on", "Work", "--allow-app", "org.example.pager", "--socket", herald.socketPath])
        #expect(edit.status == 0, "\(edit)")
        let focus = try client.call("get-focus", [:])
        #expect(focus[pointer: "/result/focuses/0/allowedApps"] == ["org.example.pager"], "\(focus.compactText)")
        #expect(focus[pointer: "/result/focuses/0/allowedPeople/0/handle/value"] == "ann@example.org", "the rest kept")
        try Self.message("m-3", from: "Eve Park", in: "c-eve", client: client)
        let early = (try? NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 1)) ?? nil
        #expect(early == nil, "no digest while Work is on: \(String(describing: early))")
        let digest = try Self.turnOffWork(expecting: 3, herald: herald, presenter: presenter, client: client)
        #expect(digest[pointer: "/entries/0/conversationIdentifier"] == "c-bob" && digest[pointer: "/entries/0/count"] == 2)
        #expect(digest[pointer: "/entries/1/conversationIdentifier"] == "c-eve" && digest[pointer: "/entries/1/count"] == 1)
        let after = (try? NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 1)) ?? nil
        #expect(after == nil, "one digest: \(String(describing: after))")
        let missed = try Heraldctl.run(["focus", "missed", "--socket", herald.socketPath])
        #expect(missed.stdout.contains("3 notifications silenced"), "\(missed)")
    }
}
