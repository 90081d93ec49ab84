import Foundation
import HeraldBus
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real herald-notify against a real session bus and dunst under Xvfb, read back with
/// `dunstctl`. heraldd has no presenter events yet (issue 12 is built beside this), so a
/// stand-in socket in the test plays heraldd and writes issue 12's presenter lines; the
/// same flow through the real heraldd is in HeraldNotifyHeralddEndToEndTests.
@Suite(.serialized, .enabled(if: DesktopSession.available, Comment(rawValue: DesktopSession.unavailableReason)))
struct HeraldNotifyDesktopEndToEndTests {
    /// A 1×1 PNG.
    static let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

    /// A session, a stand-in heraldd, and herald-notify subscribed to it.
    struct Running {
        let session: DesktopSession
        let daemon: StandInDaemon
        let notify: HeraldNotifyProcess
        let connection: UnixSocketClient

        func send(_ line: String) throws { try connection.send(line) }

        /// Waits for `count` bubbles on screen.
        func waitDisplayed(_ count: Int) -> Bool { session.wait(timeout: 20) { session.displayedCount == count } }

        /// Closes every bubble, and returns dunst's history (newest first).
        func closeAllAndReadHistory(expecting count: Int) -> [[String: Any]] {
            session.closeAll()
            _ = session.wait(timeout: 20) { session.history().count >= count }
            return session.history()
        }
    }

    static func start(session: DesktopSession? = nil, arguments: [String] = [], environment: [String: String] = [:]) throws -> Running {
        let session = try session ?? DesktopSession()
        let daemon = try StandInDaemon(path: session.folder.appendingPathComponent("herald.sock").path)
        let notify = try HeraldNotifyProcess(session: session, socket: daemon.path, arguments: arguments, environment: environment)
        let (connection, _) = try daemon.acceptPresenter()
        return Running(session: session, daemon: daemon, notify: notify, connection: connection)
    }

    static func message(
        _ identifier: String,
        title: String = "Ada",
        subtitle: String? = nil,
        body: String,
        level: String = "active",
        avatar: [String: Any]? = nil,
        conversation: String? = nil
    ) -> [String: Any] {
        // A conversation of its own unless named: one conversation's messages stack into one bubble.
        var communication: [String: Any] = [
            "type": "sendMessage", "conversationIdentifier": conversation ?? "c-\(identifier)", "recipients": [], "isGroup": false,
            "mentionsCurrentUser": false, "isReplyToCurrentUser": false,
        ]
        if let avatar { communication["avatar"] = avatar }
        var content: [String: Any] = ["title": title, "body": body, "interruptionLevel": level, "communication": communication]
        if let subtitle { content["subtitle"] = subtitle }
        return PresenterLines.notification(identifier: identifier, content: content)
    }

    @Test func aMessageIsShownAsTheTableSays() throws {
        let running = try Self.start()
        let avatar: [String: Any] = ["data": Self.png, "mimeType": "image/png"]
        try running.send(PresenterLines.delivered(Self.message("m1", subtitle: "Team <x>", body: "Lunch & more", level: "critical", avatar: avatar)))
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")

        let images = running.session.runtimeDirectory + "/herald-notify"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: images)) ?? []
        #expect(files.count == 1)
        var status = stat()
        #expect(stat("\(images)/\(files.first ?? "")", &status) == 0 && status.st_mode & 0o777 == 0o600)

        let history = running.closeAllAndReadHistory(expecting: 1)
        #expect(history.count == 1)
        let bubble = history.first ?? [:]
        #expect(bubble["appname"] as? String == "org.example.chat")
        #expect(bubble["summary"] as? String == "Ada")
        // dunst advertises body-markup: the subtitle in bold, the text escaped.
        #expect(bubble["body"] as? String == "<b>Team &lt;x&gt;</b>\nLunch &amp; more")
        #expect((bubble["message"] as? String)?.hasPrefix("urgency=critical") == true)
        #expect(bubble["category"] as? String == "im.received")
        #expect(bubble["icon_path"] as? String == "\(images)/\(files.first ?? "")")
        // Closed by the person: its image file goes with it.
        #expect(running.session.wait(timeout: 20) { ((try? FileManager.default.contentsOfDirectory(atPath: images)) ?? ["x"]).isEmpty })
    }

    @Test(arguments: [("passive", "low"), ("active", "normal"), ("timeSensitive", "normal"), ("critical", "critical")])
    func urgency(level: String, urgency: String) throws {
        let running = try Self.start()
        try running.send(PresenterLines.delivered(Self.message("u1", body: "b", level: level)))
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")
        let history = running.closeAllAndReadHistory(expecting: 1)
        #expect((history.first?["message"] as? String)?.hasPrefix("urgency=\(urgency) ") == true, "\(history)")
    }

    @Test func theSameIdentifierReplacesItsBubbleAndRemovalClosesIt() throws {
        let running = try Self.start()
        try running.send(PresenterLines.delivered(Self.message("r1", body: "first")))
        try running.send(PresenterLines.delivered(Self.message("r2", body: "other")))
        #expect(running.waitDisplayed(2), "\(running.notify.stderr)")
        try running.send(PresenterLines.delivered(Self.message("r1", body: "second")))
        // Another app's notification of the same identifier is another bubble.
        var otherApp = Self.message("r1", body: "elsewhere")
        otherApp["app"] = "org.example.mail"
        try running.send(PresenterLines.delivered(otherApp))
        #expect(running.waitDisplayed(3), "\(running.notify.stderr)")

        try running.send(PresenterLines.removed(["r2"]))
        #expect(running.waitDisplayed(2), "\(running.notify.stderr)")
        #expect(running.session.history().map { $0["body"] as? String } == ["other"])

        let history = running.closeAllAndReadHistory(expecting: 3)
        let bodies = history.compactMap { $0["body"] as? String }.sorted()
        #expect(bodies == ["elsewhere", "other", "second"])
    }

    @Test func aSummaryIsOneBubbleOfFiveRankedLines() throws {
        let running = try Self.start()
        let notifications = (1...8).map { index in
            PresenterLines.notification(identifier: "s\(index)", content: ["title": "T\(index)", "body": "b\(index)"], presentation: "summary")
        }
        try running.send(PresenterLines.summary(notifications))
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")
        let history = running.closeAllAndReadHistory(expecting: 1)
        #expect(history.count == 1)
        #expect(history.first?["summary"] as? String == "Notification summary: org.example.chat")
        #expect(history.first?["body"] as? String == "T1: b1\nT2: b2\nT3: b3\nT4: b4\nT5: b5\n+3 more")
        #expect(history.first?["appname"] as? String == "Herald")
    }

    @Test func quietIsSkippedByDefaultOrShownLow() throws {
        let quiet = PresenterLines.notification(identifier: "q1", content: ["title": "Q", "body": "quiet", "interruptionLevel": "timeSensitive"], presentation: "quiet")
        let skipping = try Self.start()
        try skipping.send(PresenterLines.delivered(quiet))
        try skipping.send(PresenterLines.delivered(Self.message("a1", body: "alert")))
        // Events are handled in order: once the alert is there, the quiet one was passed over.
        #expect(skipping.waitDisplayed(1), "\(skipping.notify.stderr)")
        #expect(skipping.closeAllAndReadHistory(expecting: 1).compactMap { $0["body"] as? String } == ["alert"])

        let shown = try Self.start(arguments: ["--quiet", "show"])
        try shown.send(PresenterLines.delivered(quiet))
        #expect(shown.waitDisplayed(1), "\(shown.notify.stderr)")
        #expect((shown.closeAllAndReadHistory(expecting: 1).first?["message"] as? String)?.hasPrefix("urgency=low") == true)
    }

    @Test func itWaitsWhileNoServerOwnsTheName() throws {
        let session = try DesktopSession(server: false)
        let running = try Self.start(session: session)
        #expect(running.notify.waitForLog(containing: "no notification server owns org.freedesktop.Notifications"))
        try running.send(PresenterLines.delivered(Self.message("w1", body: "waited")))
        try running.send(PresenterLines.delivered(Self.message("w2", body: "removed while waiting")))
        try running.send(PresenterLines.removed(["w2"]))
        try session.startServer()
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")
        #expect(running.notify.waitForLog(containing: "showing notifications through dunst"))
        let log = running.notify.stderr
        #expect(log.components(separatedBy: "no notification server owns").count == 2, "logged once: \(log)")
        #expect(running.closeAllAndReadHistory(expecting: 1).compactMap { $0["body"] as? String } == ["waited"])

        // The server goes and comes back: the wait is logged once more, then bubbles show again.
        session.stopServer()
        #expect(running.notify.waitForLog(containing: "no notification server owns", timeout: 20))
        try running.send(PresenterLines.delivered(Self.message("w3", body: "after")))
        try session.startServer()
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")
    }

    @Test func actionsAnswerWithRespondToNotification() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("herald-dmenu-\(UUID().uuidString.prefix(8))").path
        // dunst's context menu hands the script one line per action; it picks "Like".
        try "#!/bin/sh\ntee '\(script).in' | grep -m1 '^#Like '\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        defer {
            unlink(script)
            unlink(script + ".in")
        }
        let running = try Self.start(session: try DesktopSession(dmenu: script))
        let actions: [[String: Any]] = [
            ["identifier": "like", "title": "Like"],
            ["identifier": "reply", "title": "Reply", "textInput": ["buttonTitle": "Send", "placeholder": "Message"]],
        ]
        for identifier in ["a1", "a2"] {
            // Different bodies: dunst stacks duplicates into one bubble.
            let content: [String: Any] = ["title": "Ada", "body": "Lunch? (\(identifier))", "categoryIdentifier": "message"]
            try running.send(PresenterLines.delivered(PresenterLines.notification(identifier: identifier, content: content, actions: actions)))
        }
        #expect(running.waitDisplayed(2), "\(running.notify.stderr)")

        // The default action of the newest bubble (dunstctl action 0).
        #expect(running.session.dunstctl(["action", "0"]).status == 0)
        let opened = try #require(try running.connection.readLine(timeout: 20))
        let openedRequest = try #require(try JSONSerialization.jsonObject(with: Data(opened.utf8)) as? [String: Any])
        #expect(openedRequest["method"] as? String == "respond-to-notification")
        let openedParams = openedRequest["params"] as? [String: Any] ?? [:]
        #expect(openedParams["app"] as? String == "org.example.chat")
        #expect(openedParams["actionIdentifier"] as? String == "default")
        #expect(["a1", "a2"].contains(openedParams["identifier"] as? String ?? ""))
        #expect(openedParams["uid"] == nil)
        // heraldd without issue 14 answers -32601: logged once, herald-notify carries on.
        try running.send(#"{"jsonrpc":"2.0","id":\#(openedRequest["id"] as? Int ?? 0),"error":{"code":-32601,"message":"Method not found"}}"# + "\n")
        #expect(running.notify.waitForLog(containing: "has no respond-to-notification"))

        // Another action through dunst's context menu; the text-input one is not offered.
        // (The opened bubble stays: heraldd's notifications-removed after a response closes it.)
        #expect(running.session.dunstctl(["context"]).status == 0)
        let liked = try #require(try running.connection.readLine(timeout: 20))
        let likedParams = (try JSONSerialization.jsonObject(with: Data(liked.utf8)) as? [String: Any])?["params"] as? [String: Any] ?? [:]
        #expect(likedParams["actionIdentifier"] as? String == "like")
        let offered = (try? String(contentsOfFile: script + ".in", encoding: .utf8)) ?? ""
        #expect(offered.contains("#Like ") && !offered.contains("Reply"), "\(offered)")
    }

    /// A renderer that answers nothing (dunst stopped; herald-notify's call timeout to it
    /// is 120 s here) never holds the presenter: the close of a bubble shown, and of one whose
    /// Notify is unanswered, wait for the renderer while the next notification still goes to
    /// it. Once it goes on, both are closed and the last is shown.
    @Test func closingOnAStoppedRendererLeavesThePresenterPresenting() throws {
        let running = try Self.start(arguments: ["--renderer-timeout", "120"])
        try running.send(PresenterLines.delivered(Self.message("s1", body: "first")))
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")
        let monitor = try BusMonitor.notifyCalls(onBus: running.session.busAddress)

        running.session.pauseServer()
        try running.send(PresenterLines.removed(["s1"]))
        try running.send(PresenterLines.delivered(Self.message("s2", body: "second")))
        try running.send(PresenterLines.removed(["s2"]))
        try running.send(PresenterLines.delivered(Self.message("s3", body: "third")))
        #expect(monitor.sawNotify(body: "third"), "the presenter went on while the renderer was stopped: \(running.notify.stderr)")
        running.session.resumeServer()

        func closedBodies() -> Set<String> { Set(running.session.history().compactMap { $0["body"] as? String }) }
        #expect(running.session.wait(timeout: 20) { closedBodies() == ["first", "second"] }, "\(closedBodies()) \(running.notify.stderr)")
        #expect(running.session.displayedCount == 1)
        #expect(running.closeAllAndReadHistory(expecting: 3).first?["body"] as? String == "third")
        #expect(!running.notify.stderr.contains("CloseNotification failed"), "\(running.notify.stderr)")
    }

    @Test func itReconnectsWhenHeralddGoes() throws {
        let running = try Self.start()
        shutdown(running.connection.fd, Int32(SHUT_RDWR))
        // It comes back and subscribes again, then shows what the new connection delivers.
        let (again, _) = try running.daemon.acceptPresenter()
        try again.send(PresenterLines.delivered(Self.message("c1", body: "after reconnecting")))
        #expect(running.waitDisplayed(1), "\(running.notify.stderr)")
        withExtendedLifetime(again) {}
    }

    @Test func aHeralddWithoutPresenterEventsIsAskedAgainLater() throws {
        let session = try DesktopSession()
        let daemon = try StandInDaemon(path: session.folder.appendingPathComponent("herald.sock").path)
        let notify = try HeraldNotifyProcess(session: session, socket: daemon.path)
        let (connection, _) = try daemon.acceptPresenter(error: #"{"code":-32601,"message":"Method not found"}"#)
        #expect(notify.waitForLog(containing: "has no subscribe-notifications"))
        #expect(try connection.waitForClose(timeout: 20))
        #expect(notify.process.isRunning)
        #expect(notify.stop() == 0)
    }
}
