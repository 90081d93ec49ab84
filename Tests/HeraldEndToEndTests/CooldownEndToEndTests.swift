import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31: burst cooldown through the real heraldd — the second message of a
/// conversation in quick succession comes without sound, the presenter is told so, the
/// person sets the window with heraldctl, and it survives a restart.
@Suite("Burst cooldown, end to end")
struct CooldownEndToEndTests {
    static let app = "org.example.chat"

    static func message(_ identifier: String, conversation: String = "c-trip") -> JSONValue {
        [
            "app": .string(app),
            "interaction": [
                "identifier": .string(identifier),
                "direction": "incoming",
                "intent": ["type": "sendMessage", "sender": ["displayName": "Ann"], "conversationIdentifier": .string(conversation)],
            ],
        ]
    }

    /// Donates a message of `conversation` and provides its content; the answer.
    static func notify(_ identifier: String, conversation: String = "c-trip", on client: UnixSocketClient) throws -> JSONValue {
        let donated = try client.call("donate", message(identifier, conversation: conversation))
        #expect(donated[pointer: "/result/identifier"] == .string(identifier), "\(donated.compactText)")
        return try client.call("update-content", ["app": .string(app), "interactionIdentifier": .string(identifier), "content": ["body": "Lunch?"]])
    }

    @Test("The second message of a conversation comes without sound, saying why; another conversation and a critical one sound")
    func secondMessageIsQuiet() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()

        let first = try Self.notify("m-1", on: client)
        #expect(first[pointer: "/result/delivery/sound"] == true, "\(first.compactText)")
        #expect(try NotificationListEndToEndTests.next("notification-delivered", from: presenter)?[pointer: "/notification/delivery/sound"] == true)

        let second = try Self.notify("m-2", on: client)
        #expect(second[pointer: "/result/delivery/presentation"] == "alert", "\(second.compactText)")
        #expect(second[pointer: "/result/delivery/sound"] == false && second[pointer: "/result/delivery/announce"] == false)
        #expect(second[pointer: "/result/delivery/lightsScreen"] == true)
        #expect(second[pointer: "/result/delivery/reasons/1/code"] == "cooledDown")
        let sentence = second[pointer: "/result/delivery/reasons/1/message"]?.stringValue ?? ""
        #expect(sentence.hasPrefix("This conversation has sent notifications in quick succession since ") && sentence.contains("60 seconds"), "\(sentence)")
        let shown = try #require(try NotificationListEndToEndTests.next("notification-delivered", from: presenter))
        #expect(shown[pointer: "/notification/delivery/sound"] == false, "the presenter shows it without sound: \(shown.compactText)")
        #expect(shown[pointer: "/notification/delivery/reasons/1/code"] == "cooledDown")

        let other = try Self.notify("m-3", conversation: "c-other", on: client)
        #expect(other[pointer: "/result/delivery/sound"] == true, "another conversation: \(other.compactText)")
        let listed = try client.call("list-notifications", ["app": .string(Self.app)])
        #expect(listed[pointer: "/result/notifications"]?.arrayValue?.count == 3, "each is listed: \(listed.compactText)")

        _ = try client.call("set-capabilities", ["app": .string(Self.app), "critical": true])
        let critical = try client.call(
            "update-content", ["app": .string(Self.app), "identifier": "alarm", "content": ["title": "Smoke", "interruptionLevel": "critical"]])
        #expect(critical[pointer: "/result/delivery/sound"] == true, "\(critical.compactText)")
        let plain = try client.call("update-content", ["app": .string(Self.app), "identifier": "p-1", "content": ["title": "Backup done"]])
        #expect(plain[pointer: "/result/delivery/sound"] == true, "a critical one started no burst: \(plain.compactText)")
    }

    @Test("heraldctl cooldown sets, shows and turns off the window; it survives a restart")
    func heraldctlAndRestart() throws {
        let folder = SnapshotEndToEndTests.StateFolder()
        var herald = try folder.start()
        let shown = try Heraldctl.run(["cooldown", "--socket", herald.socketPath])
        #expect(shown.stdout.hasPrefix("Burst cooldown: 60 seconds."), "\(shown)")
        let set = try Heraldctl.run(["cooldown", "2m", "--socket", herald.socketPath])
        #expect(set.stdout.hasPrefix("Burst cooldown: 120 seconds."), "\(set)")
        let json = try Heraldctl.run(["cooldown", "--json", "--socket", herald.socketPath])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["seconds"] as? Int == 120 && object?["uid"] as? Int == Int(getuid()), "\(json)")
        let refused = try Heraldctl.run(["cooldown", "11m", "--socket", herald.socketPath])
        #expect(refused.status == 2 && refused.stderr.contains("0 to 600"), "\(refused)")
        let outOfRange = try herald.connect().call("set-cooldown", ["seconds": 601])
        #expect(outOfRange[pointer: "/error/code"] == -32602 && outOfRange[pointer: "/error/data/pointer"] == "/seconds", "\(outOfRange.compactText)")
        #expect(outOfRange[pointer: "/error/data/limit"] == 600)

        #expect(herald.stop() == 0)
        herald = try folder.start()
        let kept = try herald.connect().call("get-cooldown")
        #expect(kept[pointer: "/result/seconds"] == 120, "kept in the snapshot: \(kept.compactText)")

        let off = try Heraldctl.run(["cooldown", "off", "--socket", herald.socketPath])
        #expect(off.stdout.hasPrefix("The burst cooldown is off"), "\(off)")
        let client = try herald.connect()
        #expect(try Self.notify("m-1", on: client)[pointer: "/result/delivery/sound"] == true)
        #expect(try Self.notify("m-2", on: client)[pointer: "/result/delivery/sound"] == true, "off: every alert sounds")
    }

    @Test("set-cooldown is journaled with the window and whose it is", .enabled(if: JournalReader.isAvailable, "needs a running systemd-journald"))
    func journaled() throws {
        let herald = try HeraldProcess(arguments: ["--log-target", "journal"])
        let journal = JournalReader(pid: herald.process.pid)
        _ = try herald.connect().call("set-cooldown", ["seconds": 90, "uid": 1000], id: 1)
        let entry = try #require(try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=set-cooldown"]).first)
        #expect(entry.field("HERALD_COOLDOWN_SECONDS") == "90" && entry.field("HERALD_SETTING_UID") == "1000")
        #expect(entry.field("MESSAGE") == "set-cooldown ok uid=1000 cooldown=90s")
        #expect(entry.field("MESSAGE_ID") == SetCooldownMethod.journalMessageIDs.ok)
    }
}
