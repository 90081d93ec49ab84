import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31, item 7: the person removes a notification and undoes it with heraldctl; the
/// presenter shows it again, and an action on it still reaches the app subscribed to its
/// responses.
@Suite("Undo, end to end")
struct UndoEndToEndTests {
    typealias R = ResponsesEndToEndTests

    @Test("heraldctl undoes a removal: the presenter shows it again, and its action's response reaches the app")
    func undoAndRespond() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let app = try herald.connect()
        let presenter = try herald.connect()
        let person = try herald.connect()
        _ = try app.call("set-notification-categories", ["app": .string(R.chat), "categories": R.categories])
        #expect(try app.call("subscribe-responses", ["app": .string(R.chat)])[pointer: "/result/pending"] == 0)
        _ = try presenter.call("subscribe-notifications", [:])
        try R.post(person, "m-1", category: "message")
        let first = try #require(try R.next("notification-delivered", from: presenter))
        let receivedAt = first[pointer: "/notification/receivedAt"]

        let removed = try person.call("remove-notifications", ["app": .string(R.chat), "identifiers": ["m-1"]])
        #expect(removed[pointer: "/result/removed"] == 1, "\(removed.compactText)")
        #expect(try R.next("notifications-removed", from: presenter)?[pointer: "/identifiers"] == ["m-1"])
        let listed = try Heraldctl.run(["notifications", "list", "--removed", "--socket", herald.socketPath])
        #expect(listed.stdout.contains("m-1 org.example.chat delivered") && listed.stdout.contains("restorable until"), "\(listed)")
        let removedList = try person.call("list-removed-notifications", [:])
        #expect(removedList[pointer: "/result/notifications/0/notification/identifier"] == "m-1", "\(removedList.compactText)")
        #expect(removedList[pointer: "/result/more"] == false)

        let undone = try Heraldctl.run(["notifications", "undo", "--socket", herald.socketPath])
        #expect(undone.stdout == "Restored 1 notification.\n", "\(undone)")
        let back = try #require(try R.next("notification-delivered", from: presenter))
        #expect(back[pointer: "/notification/identifier"] == "m-1")
        #expect(back[pointer: "/notification/delivery/reasons/0/code"] == "restored", "\(back.compactText)")
        #expect(back[pointer: "/notification/receivedAt"] == receivedAt, "in its place")
        #expect(back[pointer: "/notification/actions/1/identifier"] == "like", "its actions again")

        let answer = try R.respond(person, "m-1", "like")
        #expect(answer[pointer: "/result/response"] == "delivered", "\(answer.compactText)")
        let heard = try #require(try R.next("notification-response", from: app))
        #expect(heard[pointer: "/identifier"] == "m-1" && heard[pointer: "/actionIdentifier"] == "like")

        let nothing = try Heraldctl.run(["notifications", "undo", "--socket", herald.socketPath])
        #expect(nothing.stdout.hasPrefix("Nothing to restore"), "\(nothing)")
        let bad = try person.call("restore-notifications", ["app": .string(R.chat)])
        R.expectError(bad, -32602, "/identifiers", "an app without identifiers")
    }

    /// Issue 45, item 2, as the person tried it: Work on allowing only Ann, Ann's trip
    /// conversation muted; undoing a removal brings nothing back with sound or as an alert
    /// the Focus or the mute keeps quiet.
    @Test("Under a Focus and a mute, heraldctl undo brings silenced and muted notifications back quiet")
    func undoUnderAFocusAndAMute() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let presenter = try herald.connect()
        let person = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        try person.result("set-focus", ["focus": ["name": "Work", "allowedPeople": [["handle": ["value": "ann@example.org", "type": "emailAddress"]]]]])
        try person.result("set-conversation", ["app": .string(R.chat), "conversationIdentifier": "c-trip", "mute": ["forever": true]])
        let ann: JSONValue = ["handle": ["value": "ann@example.org", "type": "emailAddress"], "displayName": "Ann"]
        let bob: JSONValue = ["handle": ["value": "bob@example.org", "type": "emailAddress"], "displayName": "Bob"]
        for (identifier, sender, conversation) in [("m-bob", bob, "c-bob"), ("m-trip", ann, "c-trip")] {
            try person.result(
                "donate",
                [
                    "app": .string(R.chat),
                    "interaction": [
                        "identifier": .string(identifier), "direction": "incoming",
                        "intent": ["type": "sendMessage", "sender": sender, "conversationIdentifier": .string(conversation)],
                    ],
                ])
            try person.result(
                "update-content",
                ["app": .string(R.chat), "identifier": .string(identifier), "interactionIdentifier": .string(identifier), "content": ["body": "Lunch?"]])
            _ = try R.next("notification-delivered", from: presenter)
        }
        let removed = try Heraldctl.run(["notifications", "remove", "--app", R.chat, "--all", "--socket", herald.socketPath])
        #expect(removed.status == 0, "\(removed)")
        let undone = try Heraldctl.run(["notifications", "undo", "--socket", herald.socketPath])
        #expect(undone.stdout == "Restored 2 notifications.\n", "\(undone)")
        var back: [String: JSONValue] = [:]
        for _ in 0..<2 {
            let delivered = try #require(try R.next("notification-delivered", from: presenter))
            back[delivered[pointer: "/notification/identifier"]?.stringValue ?? ""] = delivered[pointer: "/notification/delivery"]
        }
        let codes = { (identifier: String) in (back[identifier]?[pointer: "/reasons"]?.arrayValue ?? []).compactMap { $0[pointer: "/code"]?.stringValue } }
        #expect(back["m-bob"]?[pointer: "/presentation"] == "quiet" && codes("m-bob") == ["restored", "silencedByFocus"], "\(back)")
        #expect(back["m-trip"]?[pointer: "/presentation"] == "quiet" && codes("m-trip") == ["restored", "senderAllowedByFocus", "conversationMuted"])
        #expect(back.values.allSatisfy { $0[pointer: "/sound"] == false }, "\(back)")
        // Counted once as the Focus's: it silenced Bob's when it came.
        #expect(try person.call("get-focus-digest", [:])[pointer: "/result/running/total"] == 1)
    }

    @Test("A removal stays restorable across a restart, within the window")
    func acrossARestart() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("herald-e2e-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: state) }
        let arguments = ["--state-dir", state.path, "--log-target", "none"]
        do {
            let herald = try HeraldProcess(.standalone, arguments: arguments)
            let person = try herald.connect()
            try R.post(person, "m-1", category: nil)
            #expect(try person.call("remove-notifications", ["app": .string(R.chat), "all": true])[pointer: "/result/removed"] == 1)
            #expect(herald.stop() == 0)
        }
        let herald = try HeraldProcess(.standalone, arguments: arguments)
        let restored = try Heraldctl.run(["notifications", "restore", R.chat, "m-1", "--socket", herald.socketPath])
        #expect(restored.stdout == "Restored 1 notification.\n", "\(restored)")
        let listed = try herald.connect().call("list-notifications", ["app": .string(R.chat)])
        #expect(listed[pointer: "/result/notifications/0/identifier"] == "m-1", "\(listed.compactText)")
    }

    @Test("Issue 49, finding 6: a restore naming 80,000 identifiers is refused at /identifiers; 500 are looked up")
    func tooManyIdentifiers() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let person = try herald.connect()
        try R.post(person, "m-1", category: nil)
        _ = try person.call("remove-notifications", ["app": .string(R.chat), "identifiers": ["m-1"]])
        let many = JSONValue.array((0..<80_000).map { .string("x-\($0)") })
        let refused = try person.call("restore-notifications", ["app": .string(R.chat), "identifiers": many])
        R.expectError(refused, -32602, "/identifiers", "80,000 identifiers")
        #expect(refused[pointer: "/error/data/limit"] == 500, "\(refused.compactText)")
        #expect(try person.call("list-removed-notifications", [:])[pointer: "/result/notifications/0/notification/identifier"] == "m-1",
            "a refused call takes nothing")
        let most = JSONValue.array((0..<499).map { .string("x-\($0)") } + ["m-1"])
        let restored = try person.call("restore-notifications", ["app": .string(R.chat), "identifiers": most])
        #expect(restored[pointer: "/result/restored"] == 1, "\(restored.compactText)")
    }

    @Test("With --undo-window 0 nothing is kept; heraldctl restore names what to bring back")
    func windowOff() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--undo-window", "0"])
        let person = try herald.connect()
        try R.post(person, "m-1", category: nil)
        _ = try person.call("remove-notifications", ["app": .string(R.chat), "identifiers": ["m-1"]])
        let restored = try Heraldctl.run(["notifications", "restore", R.chat, "m-1", "--socket", herald.socketPath])
        #expect(restored.stdout.hasPrefix("Nothing to restore"), "\(restored)")
        #expect(try person.call("list-removed-notifications", [:])[pointer: "/result/notifications"] == [])
    }
}

/// A restore's journal entry names what came back by identifier, never its content.
@Suite("Undo in the journal, end to end", .enabled(if: JournalReader.isAvailable, "needs a running systemd-journald"))
struct UndoJournalEndToEndTests {
    @Test("restore-notifications is journaled under its own MESSAGE_ID with the identifiers, without content")
    func restoreEntry() throws {
        let herald = try HeraldProcess(arguments: ["--log-target", "journal"])
        let client = try herald.connect()
        let journal = JournalReader(pid: herald.process.pid)
        let content: JSONValue = ["title": "Secret title", "body": "Secret body"]
        for identifier in ["j-1", "j-2"] {
            _ = try client.call("update-content", ["app": "org.example.chat", "identifier": .string(identifier), "content": content])
        }
        _ = try client.call("remove-notifications", ["app": "org.example.chat", "identifiers": ["j-1", "j-2"]])
        #expect(try client.call("restore-notifications", [:], id: 7)[pointer: "/result/restored"] == 2)

        let entry = try #require(try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=restore-notifications"]).first)
        #expect(entry.field("MESSAGE_ID") == RestoreNotificationsMethod.journalMessageIDs.ok)
        #expect(entry.field("HERALD_NOTIFICATION_IDS") == "j-1,j-2", "\(entry)")
        let raw = try journal.entries().raw
        #expect(!raw.contains("Secret"), "no content in the journal")
    }
}
