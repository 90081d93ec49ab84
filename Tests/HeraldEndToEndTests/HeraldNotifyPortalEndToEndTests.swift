import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// herald-notify as xdg-desktop-portal's Notification backend, with real parts: Debian's
/// xdg-desktop-portal on the person's session bus, choosing Herald by `herald.portal`
/// (as 1.16 chooses: `XDG_DESKTOP_PORTAL_DIR`, `UseIn=` against `XDG_CURRENT_DESKTOP`), and
/// a client in a bubblewrap sandbox with a `.flatpak-info`, calling the portal with gdbus.
@Suite(.serialized, .enabled(if: PortalTools.available, Comment(rawValue: PortalTools.reason)))
struct HeraldNotifyPortalEndToEndTests {
    static let app = "org.example.Chat"

    @Test(.enabled(if: FlatpakSandbox.isUsable, "bwrap cannot make a user namespace here"))
    func aFlatpakAppsNotificationComesThroughThePortalAndItsActionGoesBack() throws {
        let journal = JournalReader.isAvailable
        let heraldd = try HeraldProcess(.standalone, arguments: journal ? ["--log-target", "journal"] : [])
        let session = try DesktopSession(rendererBus: true)
        let notify = try HeraldNotifyProcess(
            session: session, socket: heraldd.socketPath, arguments: ["--gateway", "--portal", "--renderer-bus", session.rendererBusAddress!]
        )
        #expect(notify.waitForLog(containing: "for xdg-desktop-portal"), "\(notify.stderr)")
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let portal = try PortalProcess(session: session)
        defer { portal.stop() }
        #expect(portal.waitForLog(containing: "Using herald.portal for org.freedesktop.impl.portal.Notification"), "\(portal.log)")

        // Everything the portal sends the app's connection, read as a monitor of the bus sees it.
        let monitorOutput = session.folder.appendingPathComponent("monitor.out").path
        _ = FileManager.default.createFile(atPath: monitorOutput, contents: nil)
        let monitor = try ChildProcess(
            "/usr/bin/dbus-monitor", ["--session", "type='signal',interface='org.freedesktop.portal.Notification'"],
            environment: session.environment, standardOutput: monitorOutput
        )
        defer { monitor.signal(SIGKILL) }

        let sandbox = FlatpakSandbox(app: Self.app, socketFolder: session.folder.path)
        let added = try sandbox.run(
            "/usr/bin/gdbus",
            ["call", "--session", "--dest", "org.freedesktop.portal.Desktop", "--object-path", "/org/freedesktop/portal/desktop",
             "--method", "org.freedesktop.portal.Notification.AddNotification", "n1",
             "{'title': <'Ann Lee'>, 'body': <'Lunch?'>, 'priority': <'high'>, 'default-action': <'app.open-chat'>, "
                + "'default-action-target': <'c-ann'>}"],
            binding: session.folder.path, environment: ["DBUS_SESSION_BUS_ADDRESS": session.busAddress]
        )
        #expect(added.status == 0, "\(added) \(portal.log)")

        let client = try heraldd.connect()
        #expect(session.wait(timeout: 20) {
            (try? client.call("list-notifications", ["app": .string(Self.app)]))?[pointer: "/result/notifications/0/content/title"] == .string("Ann Lee")
        }, "\(notify.stderr)")
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")

        // The click: dunst's default action, through the gateway; the portal tells the app.
        session.dunstctl(["action", "0"])
        #expect(session.wait(timeout: 20) {
            let seen = (try? String(contentsOfFile: monitorOutput, encoding: .utf8)) ?? ""
            return seen.contains("member=ActionInvoked") && seen.contains("app.open-chat") && seen.contains("c-ann")
        }, "\((try? String(contentsOfFile: monitorOutput, encoding: .utf8)) ?? "") \(notify.stderr)")

        // Only the portal is answered: anyone else naming an app gets AccessDenied.
        let posing = session.run(
            "/usr/bin/gdbus",
            ["call", "--session", "--dest", "org.freedesktop.impl.portal.desktop.herald", "--object-path", "/org/freedesktop/portal/desktop",
             "--method", "org.freedesktop.impl.portal.Notification.AddNotification", "org.example.bank", "x", "{'title': <'Bank'>}"]
        )
        #expect(posing.status != 0)
        #expect((try? client.call("list-notifications", ["app": "org.example.bank"]))?[pointer: "/result/notifications"] == .array([]))

        guard journal else { return }
        let entries = try JournalReader(pid: heraldd.process.pid).waitForEntries(count: 1, matching: ["HERALD_GATEWAY=portal"])
        #expect(entries.first?.field("HERALD_APP") == Self.app)
        #expect(entries.first?.field("HERALD_APP_VERIFIED") == "1")
        #expect(entries.first?.field("HERALD_APP_SOURCE") == "portal")
    }
}

/// Debian's xdg-desktop-portal on a test's session bus, reading its backends from a
/// folder holding only Herald's `herald.portal`.
final class PortalProcess {
    let process: ChildProcess
    let logPath: String

    init(session: DesktopSession) throws {
        let folder = session.folder.appendingPathComponent("portals")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(
            at: root.appendingPathComponent("Units/portal/herald.portal"), to: folder.appendingPathComponent("herald.portal")
        )
        logPath = session.folder.appendingPathComponent("portal.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        var environment = session.environment
        environment["XDG_DESKTOP_PORTAL_DIR"] = folder.path
        environment["XDG_CURRENT_DESKTOP"] = "sway"
        process = try ChildProcess(PortalTools.portal, ["-v"], environment: environment, standardOutput: logPath, standardError: logPath)
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func waitForLog(containing text: String, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if log.contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    func stop() {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }
}

/// What the portal test needs besides the gateway's tools: Debian's xdg-desktop-portal.
enum PortalTools {
    static let portal = "/usr/libexec/xdg-desktop-portal"
    static var available: Bool { GatewayTools.available && FileManager.default.isExecutableFile(atPath: portal) }
    static let reason = "no xdg-desktop-portal (Debian package xdg-desktop-portal) or gateway tools here: the portal test is skipped"
}
