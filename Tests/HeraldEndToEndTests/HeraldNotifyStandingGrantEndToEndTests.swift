import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// The gateway's standing grants with real parts (dbus-daemons, dunst under Xvfb,
/// `notify-send`, heraldd): an app's plain notification shown before heraldd has seen it is
/// still heraldd's — listed, journaled, searchable and undoable — and a change of the
/// person's (a Focus) reaches the very next notification, however soon it comes.
@Suite(.serialized, .enabled(if: GatewayTools.available, Comment(rawValue: GatewayTools.reason)))
struct HeraldNotifyStandingGrantEndToEndTests {
    typealias Running = HeraldNotifyGatewayEndToEndTests.Running

    static let grantWords = "Decided by the gateway's standing grant"

    /// Whether the listed notification's decision says a standing grant made it.
    static func decidedByGrant(_ notification: JSONValue?) -> Bool {
        let reasons = notification?[pointer: "/delivery/reasons"]?.arrayValue ?? []
        return reasons.contains { $0[pointer: "/message"]?.stringValue?.contains(grantWords) == true }
    }

    /// `notify-send summary body`, then waits until heraldd lists `count` notifications.
    static func send(_ running: Running, _ arguments: [String], listed count: Int) throws {
        #expect(running.notifySend(arguments).status == 0)
        #expect(running.session.wait(timeout: 20) { (try? running.list().count) == count }, "\(running.notify.stderr)")
    }

    @Test func aNotificationShownUnderAGrantIsListedJournaledSearchableAndUndoable() throws {
        let running = try HeraldNotifyGatewayEndToEndTests.start()
        // The first goes through heraldd, whose answer carries the app's grant; the second
        // is shown under it (the cooldown takes its sound: the first started a burst).
        try Self.send(running, ["Build", "first of the night"], listed: 1)
        try Self.send(running, ["Build", "pelican finished"], listed: 2)
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 2 }, "\(running.notify.stderr)")
        let listed = try running.list()
        #expect(!Self.decidedByGrant(listed[1]), "\(listed[1])")
        #expect(Self.decidedByGrant(listed[0]), "\(listed[0])")
        #expect(listed[0][pointer: "/delivery/presentation"] == .string("alert"))
        #expect(listed[0][pointer: "/delivery/sound"] == .bool(false))
        #expect(listed[0][pointer: "/delivery/reasons/1/code"] == .string("cooledDown"), "\(listed[0])")
        let identifier = try #require(listed[0][pointer: "/identifier"]?.stringValue)

        let found = try running.client.result("search-notifications", ["query": "pelican"])
        #expect(found[pointer: "/notifications/0/identifier"] == .string(identifier), "\(found)")

        let journal = JournalReader(pid: running.heraldd.process.pid)
        let entries = try journal.waitForEntries(count: 1, matching: ["HERALD_GRANT_HONOURED=1"])
        #expect(entries.count == 1)
        #expect(entries.first?.field("HERALD_METHOD") == "update-content")
        #expect(entries.first?.field("HERALD_GATEWAY") == "freedesktop")

        // Undone like any: removed (its bubble goes), then restored.
        try running.client.result("remove-notifications", ["app": "notify-send", "identifiers": [.string(identifier)]])
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 }, "\(running.notify.stderr)")
        try running.client.result("restore-notifications", ["app": "notify-send", "identifiers": [.string(identifier)]])
        let restored = try running.list().first { $0[pointer: "/identifier"]?.stringValue == identifier }
        #expect(restored?[pointer: "/delivery/reasons/0/code"] == .string("restored"), "\(String(describing: restored))")
    }

    /// `set-focus` answers only after the gateway stopped using its grants (or 50 ms):
    /// the notification sent right after it is silenced, never shown.
    @Test func aFocusTurnedOnSilencesTheVeryNextNotification() throws {
        let running = try HeraldNotifyGatewayEndToEndTests.start()
        try Self.send(running, ["Build", "one"], listed: 1)
        try Self.send(running, ["Build", "two"], listed: 2)
        #expect(Self.decidedByGrant(try running.list().first))
        try running.client.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        try Self.send(running, ["Build", "three, right after the Focus"], listed: 3)
        try Self.send(running, ["Build", "four"], listed: 4)
        let listed = try running.list()
        for notification in listed.prefix(2) {
            #expect(notification[pointer: "/delivery/reasons/0/code"] == .string("silencedByFocus"), "\(notification)")
            #expect(!Self.decidedByGrant(notification))
        }
        // Two shown, ever: nothing of the silenced ones reached dunst, not even for a moment.
        running.session.closeAll()
        #expect(running.session.wait(timeout: 20) { running.session.history().count == 2 }, "\(running.notify.stderr)")
        #expect(running.session.history().compactMap { $0["body"] as? String }.sorted() == ["one", "two"])
        #expect(running.notify.stderr.contains("otherwise than its standing grant") == false, "\(running.notify.stderr)")
    }

    /// With the cooldown off, a grant's alerts all sound; with it back on, the burst cools
    /// every one after the first, under a grant as through heraldd.
    @Test func theCooldownStillCoolsTheAlertAfterTheGrantsSoundingOnes() throws {
        let running = try HeraldNotifyGatewayEndToEndTests.start()
        try running.client.result("set-cooldown", ["seconds": 0])
        try Self.send(running, ["Build", "a"], listed: 1)
        try Self.send(running, ["Build", "b"], listed: 2)
        var newest = try running.list().first
        #expect(Self.decidedByGrant(newest) && newest?[pointer: "/delivery/sound"] == .bool(true), "\(String(describing: newest))")
        try running.client.result("set-cooldown", ["seconds": 60])
        try Self.send(running, ["Build", "c"], listed: 3)
        newest = try running.list().first
        // The grant was revoked by set-cooldown: through heraldd, with sound (a burst starts).
        #expect(!Self.decidedByGrant(newest) && newest?[pointer: "/delivery/sound"] == .bool(true), "\(String(describing: newest))")
        try Self.send(running, ["Build", "d"], listed: 4)
        newest = try running.list().first
        #expect(Self.decidedByGrant(newest), "\(String(describing: newest))")
        #expect(newest?[pointer: "/delivery/sound"] == .bool(false))
        #expect(newest?[pointer: "/delivery/reasons/1/code"] == .string("cooledDown"), "\(String(describing: newest))")
    }

    /// A message (its category) is never granted: each goes through heraldd, as a communication.
    @Test func aMessageStillGoesThroughHeraldd() throws {
        let running = try HeraldNotifyGatewayEndToEndTests.start()
        try Self.send(running, ["-c", "im.received", "Ann", "lunch?"], listed: 1)
        try Self.send(running, ["-c", "im.received", "Ann", "lunch at one?"], listed: 2)
        for notification in try running.list() {
            #expect(!Self.decidedByGrant(notification), "\(notification)")
            #expect(notification[pointer: "/content/communication"] != nil, "\(notification)")
        }
    }

    /// A heraldd that goes takes its grants with it: the gateway forgets them, and the next
    /// heraldd's first notification of the app is its own decision.
    @Test func aLostLinkDropsTheGrants() throws {
        let running = try HeraldNotifyGatewayEndToEndTests.start()
        try Self.send(running, ["Build", "one"], listed: 1)
        #expect(running.heraldd.stop() == 0)
        #expect(running.notify.waitForLog(containing: "lost heraldd"), "\(running.notify.stderr)")
        // Shown directly meanwhile (nothing is lost), then heraldd is back on the same socket.
        #expect(running.notifySend(["Build", "while away"]).status == 0)
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount >= 3 }, "\(running.notify.stderr)")
        let again = try HeraldProcess(.standalone, socketPath: running.heraldd.socketPath)
        let client = try again.connect()
        #expect(running.session.wait(timeout: 30) { running.notify.stderr.components(separatedBy: "presenting uid").count >= 3 }, "\(running.notify.stderr)")
        #expect(running.notifySend(["Build", "back"]).status == 0)
        var listed: [JSONValue] = []
        #expect(running.session.wait(timeout: 20) {
            listed = (try? client.call("list-notifications", [:])[pointer: "/result/notifications"]?.arrayValue) ?? []
            return listed.contains { $0[pointer: "/content/body"] == .string("back") }
        })
        let back = listed.first { $0[pointer: "/content/body"] == .string("back") }
        #expect(back != nil && !Self.decidedByGrant(back), "\(String(describing: back))")
    }
}
