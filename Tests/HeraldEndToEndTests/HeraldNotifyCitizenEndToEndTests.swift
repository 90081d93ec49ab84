import Foundation
import HeraldTesting
import Testing

/// herald-notify as a desktop citizen, against the real dunst: the app's name and icon
/// from its `.desktop` file in the XDG data folders, one thread's messages stacked by
/// dunst's `x-dunst-stack-tag`, and a group's avatar falling back to its sender's.
@Suite(.serialized, .enabled(if: DesktopSession.available, Comment(rawValue: DesktopSession.unavailableReason)))
struct HeraldNotifyCitizenEndToEndTests {
    typealias Desktop = HeraldNotifyDesktopEndToEndTests

    /// Writes `contents` to `folder/applications/app.desktop`.
    static func desktopFile(_ contents: String, app: String, in folder: URL) throws {
        let applications = folder.appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try contents.write(to: applications.appendingPathComponent("\(app).desktop"), atomically: true, encoding: .utf8)
    }

    @Test func theDesktopFileNamesTheAppAndGivesItsIcon() throws {
        let session = try DesktopSession()
        let home = session.folder.appendingPathComponent("data-home")
        let system = session.folder.appendingPathComponent("data-system")
        let icon = session.folder.appendingPathComponent("chat-icon.png").path
        try #require(FileManager.default.createFile(atPath: icon, contents: Data(base64Encoded: Desktop.png)))
        // The person's own folder first, then each of XDG_DATA_DIRS (a missing one is passed over).
        try Self.desktopFile("[Desktop Entry]\nType=Application\nName=Example Chat\nIcon=\(icon)\n", app: "org.example.chat", in: home)
        try Self.desktopFile("[Desktop Entry]\nType=Application\nName=System Chat\n", app: "org.example.chat", in: system)
        try Self.desktopFile("[Desktop Entry]\nType=Application\nName=Example Mail\n", app: "org.example.mail", in: system)
        let running = try Desktop.start(
            session: session,
            environment: ["XDG_DATA_HOME": home.path, "XDG_DATA_DIRS": "\(session.folder.path)/missing:\(system.path)", "LANG": "C"]
        )
        try running.send(
            PresenterLines.delivered(PresenterLines.notification(identifier: "d1", content: ["title": "Ada", "body": "chat"])))
        try running.send(
            PresenterLines.delivered(PresenterLines.notification(identifier: "d2", app: "org.example.mail", content: ["body": "mail"])))
        try running.send(
            PresenterLines.delivered(
                PresenterLines.notification(identifier: "d3", app: "org.example.unknown", content: ["title": "T", "body": "unknown"])))
        #expect(running.waitDisplayed(3), "\(running.notify.stderr)")

        let history = running.closeAllAndReadHistory(expecting: 3)
        let byBody = Dictionary(history.map { ($0["body"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byBody["chat"]?["appname"] as? String == "Example Chat", "\(history)")
        #expect(byBody["chat"]?["icon_path"] as? String == icon, "\(history)")
        // dunst's rule for the `desktop-entry` hint (DesktopSession) marks the bubble.
        #expect((byBody["chat"]?["message"] as? String)?.hasPrefix("desktop-entry=org.example.chat ") == true, "\(history)")
        #expect(byBody["mail"]?["appname"] as? String == "Example Mail", "\(history)")
        // No title: the app's name from its desktop file, not its identifier.
        #expect(byBody["mail"]?["summary"] as? String == "Example Mail", "\(history)")
        #expect(byBody["unknown"]?["appname"] as? String == "org.example.unknown", "\(history)")
    }

    @Test func oneThreadIsOneStack() throws {
        let running = try Desktop.start()
        try running.send(PresenterLines.delivered(Desktop.message("t1", body: "first in c1", conversation: "c1")))
        try running.send(PresenterLines.delivered(Desktop.message("t2", body: "second in c1", conversation: "c1")))
        try running.send(PresenterLines.delivered(Desktop.message("t3", body: "first in c2", conversation: "c2")))
        // Three messages, two conversations: once both show, all three were handled (in order).
        #expect(running.waitDisplayed(2), "\(running.notify.stderr)")
        #expect(running.session.displayedCount == 2)

        // The stack's bubble is the newest message's: removing it closes the stack.
        try running.send(PresenterLines.removed(["t2"]))
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")
        let history = running.closeAllAndReadHistory(expecting: 2)
        let bodies = history.compactMap { $0["body"] as? String }
        #expect(bodies.contains("second in c1") && bodies.contains("first in c2"), "\(bodies)")
        // Replaced in its stack, the first message never stood as a bubble of its own.
        #expect(!bodies.contains("first in c1"), "\(bodies)")
    }

    @Test func aGroupWithoutItsOwnImageShowsTheSenders() throws {
        let running = try Desktop.start()
        var group = Desktop.message("g1", title: "Team", body: "from Bo", conversation: "team")
        var content = group["content"] as? [String: Any] ?? [:]
        var communication = content["communication"] as? [String: Any] ?? [:]
        communication["isGroup"] = true
        communication["sender"] = ["displayName": "Bo", "image": ["data": Desktop.png, "mimeType": "image/png"]]
        content["communication"] = communication
        group["content"] = content
        try running.send(PresenterLines.delivered(group))
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")

        let images = running.session.runtimeDirectory + "/herald-notify"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: images)) ?? []
        #expect(files.count == 1)
        let history = running.closeAllAndReadHistory(expecting: 1)
        #expect(history.first?["icon_path"] as? String == "\(images)/\(files.first ?? "")", "\(history)")
    }
}
