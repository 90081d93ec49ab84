import Foundation
import HeraldBus
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The sd-bus binding against a real session bus and a real notification server (dunst
/// under Xvfb), read back with `dunstctl`.
@Suite(.serialized, .enabled(if: DesktopSession.available, Comment(rawValue: DesktopSession.unavailableReason)))
struct DesktopNotificationsTests {
    /// A bus client of `session` (herald-notify's own, sd_bus_open_user, is tested through
    /// DBUS_SESSION_BUS_ADDRESS in HeraldNotifyDesktopEndToEndTests).
    static func connect(_ session: DesktopSession) throws -> DesktopNotifications {
        DesktopNotifications(bus: try SessionBus(address: session.busAddress))
    }

    /// Waits here (at most 20 s) for the answer a call of `server`'s gives `answer`, as
    /// herald-notify's loop would take it.
    static func answer<Value>(
        of server: DesktopNotifications, _ call: (@escaping (Result<Value, BusError>) -> Void) throws -> Void
    ) throws -> Value {
        var result: Result<Value, BusError>?
        try call { result = $0 }
        let deadline = Date().addingTimeInterval(20)
        while result == nil, Date() < deadline { try server.bus.wait(timeout: .seconds(1)) }
        return try #require(result, "no answer in 20 s").get()
    }

    static func notify(_ server: DesktopNotifications, _ arguments: NotifyArguments) throws -> UInt32 {
        try answer(of: server) { try server.notify(arguments, answer: $0) }
    }

    @Test func serverInformationAndCapabilities() throws {
        let session = try DesktopSession()
        let server = try Self.connect(session)
        #expect(try server.serverInformation().name == "dunst")
        let capabilities = try server.capabilities()
        #expect(capabilities.contains("body"))
        #expect(capabilities.contains("actions"))
        #expect(try server.serverIsAvailable())
    }

    @Test func notifyReplaceAndClose() throws {
        let session = try DesktopSession()
        let server = try Self.connect(session)
        var closed: [(UInt32, NotificationClosedReason)] = []
        try server.onNotificationClosed { closed.append(($0, $1)) }
        let id = try Self.notify(
            server, NotifyArguments(appName: "org.example.chat", summary: "First", body: "one", hints: [("urgency", .byte(2)), ("category", .string("im.received"))])
        )
        #expect(id > 0)
        let again = try Self.notify(server, NotifyArguments(appName: "org.example.chat", replacesID: id, summary: "Second", body: "two", hints: [("urgency", .byte(2))]))
        #expect(again == id)
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 })

        try Self.answer(of: server) { server.close(id, answer: $0) }
        let deadline = Date().addingTimeInterval(20)
        while closed.isEmpty, Date() < deadline { try server.bus.wait(timeout: .seconds(1)) }
        #expect(closed.first?.0 == id)
        #expect(closed.first?.1 == .closedByCall)
        #expect(session.displayedCount == 0)
        let history = session.history()
        #expect(history.count == 1)
        #expect(history.first?["summary"] as? String == "Second")
        #expect(history.first?["body"] as? String == "two")
        #expect(history.first?["appname"] as? String == "org.example.chat")
        #expect((history.first?["message"] as? String)?.hasPrefix("urgency=critical") == true)
    }

    @Test func defaultActionArrivesAsActionInvoked() throws {
        let session = try DesktopSession()
        let server = try Self.connect(session)
        var invoked: [(UInt32, String)] = []
        try server.onActionInvoked { invoked.append(($0, $1)) }
        let id = try Self.notify(server, NotifyArguments(appName: "app", summary: "Open me", actions: ["default", "Open", "like", "Like"]))
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 })
        #expect(session.dunstctl(["action", "0"]).status == 0)
        let deadline = Date().addingTimeInterval(20)
        while invoked.isEmpty, Date() < deadline { try server.bus.wait(timeout: .seconds(1)) }
        #expect(invoked.first?.0 == id)
        #expect(invoked.first?.1 == "default")
    }

    /// KDE Plasma's inline reply arrives as `NotificationReplied(id, text)`. dunst has no
    /// inline reply, so the signal is sent on the real bus by `dbus-send`, as Plasma sends it.
    @Test func anInlineReplyArrivesAsNotificationReplied() throws {
        let session = try DesktopSession()
        let server = try Self.connect(session)
        var replies: [(UInt32, String)] = []
        try server.onNotificationReplied { replies.append(($0, $1)) }
        try server.bus.processPending()
        let sent = session.run(
            "/usr/bin/dbus-send",
            [
                "--session", "--type=signal", "/org/freedesktop/Notifications", "org.freedesktop.Notifications.NotificationReplied",
                "uint32:7", "string:On my way",
            ]
        )
        #expect(sent.status == 0)
        let deadline = Date().addingTimeInterval(20)
        while replies.isEmpty, Date() < deadline { try server.bus.wait(timeout: .seconds(1)) }
        #expect(replies.first?.0 == 7)
        #expect(replies.first?.1 == "On my way")
    }

    @Test func ownerChangesWhenAServerComesAndGoes() throws {
        let session = try DesktopSession(server: false)
        let server = try Self.connect(session)
        #expect(try server.serverIsAvailable() == false)
        var changes: [Bool] = []
        try server.onOwnerChanged { changes.append($0) }
        try server.bus.processPending()
        try session.startServer()
        var deadline = Date().addingTimeInterval(20)
        while changes.isEmpty, Date() < deadline { try server.bus.wait(timeout: .seconds(1)) }
        #expect(changes == [true])
        #expect(try server.serverIsAvailable())
        session.stopServer()
        deadline = Date().addingTimeInterval(20)
        while changes.count < 2, Date() < deadline { try server.bus.wait(timeout: .seconds(1)) }
        #expect(changes == [true, false])
        do {
            _ = try Self.notify(server, NotifyArguments(appName: "app", summary: "nobody"))
            Issue.record("Notify succeeded with no server")
        } catch {
            #expect((error as? BusError)?.isServiceUnknown == true, "\(error)")
        }
    }
}
