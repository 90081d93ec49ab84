import Foundation
import HeraldBus
import HeraldProtocol
import HeraldTesting
import Testing

/// herald-notify as the desktop's notification gateway, with real parts: the person's
/// session bus and the renderer's private bus (two dbus-daemons), dunst on the renderer's
/// bus under Xvfb, the real heraldd, and apps that know nothing of Herald — `notify-send`
/// (libnotify) and `gdbus` (GLib), one of them in a bubblewrap sandbox with a `.flatpak-info`.
@Suite(.serialized, .enabled(if: GatewayTools.available, Comment(rawValue: GatewayTools.reason)))
struct HeraldNotifyGatewayEndToEndTests {
    struct Running {
        let heraldd: HeraldProcess
        let session: DesktopSession
        let notify: HeraldNotifyProcess
        let client: UnixSocketClient

        /// `notify-send arguments…` on the person's bus; its standard output.
        @discardableResult
        func notifySend(_ arguments: [String]) -> (status: Int32?, stdout: String) {
            session.run("/usr/bin/notify-send", arguments)
        }

        /// `gdbus call` of the gateway's `method` on the person's bus.
        func gdbus(_ method: String, _ arguments: [String]) -> (status: Int32?, stdout: String) {
            session.run(
                "/usr/bin/gdbus",
                ["call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                 "--method", "org.freedesktop.Notifications.\(method)"] + arguments
            )
        }

        /// The renderer's `NotificationReplied(id, text)` on its bus, as KDE Plasma sends it
        /// (dunst has no inline reply): `dbus-send` sends it for the bubble `id` there.
        func rendererReplies(to id: UInt32, _ text: String) {
            let sent = session.run(
                "/usr/bin/dbus-send",
                ["--bus=\(session.rendererBusAddress!)", "--type=signal", "/org/freedesktop/Notifications",
                 "org.freedesktop.Notifications.NotificationReplied", "uint32:\(id)", "string:\(text)"]
            )
            #expect(sent.status == 0, "\(sent)")
        }

        /// heraldd's list of this uid's notifications, newest first.
        func list() throws -> [JSONValue] {
            let answer = try client.call("list-notifications", ["limit": .number(JSONNumber(100))])
            return answer[pointer: "/result/notifications"]?.arrayValue ?? []
        }
    }

    static func start(heraldd: HeraldProcess? = nil, displayLimit: Int = 0, arguments: [String] = []) throws -> Running {
        let heraldd = try heraldd ?? HeraldProcess(.standalone)
        let session = try DesktopSession(rendererBus: true, displayLimit: displayLimit)
        let gateway = ["--gateway", "--renderer-bus", session.rendererBusAddress!]
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath, arguments: gateway + arguments)
        #expect(notify.waitForLog(containing: "as Herald's gateway"), "\(notify.stderr)")
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        return Running(heraldd: heraldd, session: session, notify: notify, client: try heraldd.connect())
    }

    /// A status bar that follows dunst's pause by its `PropertiesChanged` (waybar's and
    /// i3status-rust's dunst blocks do) still sees it: the renderer's own broadcast signals
    /// come back on the person's bus, from the name's owner; its per-id Notifications signals
    /// do not (they name the renderer's ids, answered per app).
    @Test func theRenderersOwnSignalsReachThePersonsBus() throws {
        let running = try Self.start()
        let bar = try SessionBus(address: running.session.busAddress)
        var paused: [Bool] = []
        var notificationSignals = 0
        try bar.addMatch(
            "type='signal',sender='org.freedesktop.Notifications',path='/org/freedesktop/Notifications',"
                + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"
        ) { signal in
            guard (try? signal.readString()) == "org.dunstproject.cmd0", let changed = try? signal.readDictionary(byteLimit: 4096) else { return }
            if let value = changed.first(where: { $0.key == "paused" })?.value.boolValue { paused.append(value) }
        }
        try bar.addMatch("type='signal',interface='org.freedesktop.Notifications',member='NotificationClosed'") { _ in notificationSignals += 1 }
        try bar.flush()

        #expect(running.session.dunstctl(["set-paused", "true"]).status == 0)
        #expect(running.session.dunstctl(["set-paused", "false"]).status == 0)
        let deadline = Date().addingTimeInterval(20)
        while paused.count < 2, Date() < deadline { try bar.wait(timeout: .milliseconds(200)) }
        #expect(paused == [true, false], "\(running.notify.stderr)")
        // A bubble another app shows and dunst closes: the gateway's NotificationClosed goes
        // to notify-send alone (unicast), and dunst's own is not passed on.
        #expect(running.notifySend(["-t", "1", "Short"]).status == 0)
        #expect(running.session.wait(timeout: 20) { running.session.history().count == 1 }, "\(running.notify.stderr)")
        for _ in 0..<5 { try bar.wait(timeout: .milliseconds(100)) }
        #expect(notificationSignals == 0)
    }

    @Test func notifySendIsDecidedByHeraldAndShownByTheRenderer() throws {
        let running = try Self.start()
        let sent = running.notifySend(["-p", "Slack", "standup <b>in</b> 5"])
        #expect(sent.status == 0)
        let id = UInt32(sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(id != nil && id != 0, "notify-send -p printed \(sent.stdout)")
        // dunstctl itself reaches dunst through the gateway (org.dunstproject.cmd0, forwarded).
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 }, "\(running.notify.stderr)")

        let listed = try running.list()
        #expect(listed.count == 1)
        #expect(listed.first?[pointer: "/app"] == .string("notify-send"))
        #expect(listed.first?[pointer: "/content/title"] == .string("Slack"))
        // Herald keeps the text without markup, so that search finds "in".
        #expect(listed.first?[pointer: "/content/body"] == .string("standup in 5"))

        // A Focus on: the next one is silenced, not shown, and listed with its reason.
        try running.client.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(running.notifySend(["Slack", "standup moved"]).status == 0)
        #expect(running.session.wait(timeout: 20) { (try? running.list().count) == 2 })
        let silenced = try running.list().first
        #expect(silenced?[pointer: "/delivery/presentation"] == .string("quiet"), "\(String(describing: silenced))")
        #expect(silenced?[pointer: "/delivery/reasons/0/code"] == .string("silencedByFocus"))
        #expect(running.session.displayedCount == 1)

        let history = running.session.history()
        running.session.closeAll()
        #expect(running.session.wait(timeout: 20) { running.session.history().count == 1 }, "\(history)")
        let bubble = running.session.history().first ?? [:]
        #expect(bubble["appname"] as? String == "notify-send")
        #expect(bubble["summary"] as? String == "Slack")
        #expect(bubble["body"] as? String == "standup <b>in</b> 5")
    }

    /// A click reaches the app that asked, as without Herald: `notify-send --action --wait`
    /// prints the action it hears, and dunst's default action is taken with `dunstctl
    /// action`, itself through the gateway.
    @Test func anActionGoesBackToTheAppThatAsked() throws {
        let running = try Self.start()
        let output = running.session.folder.appendingPathComponent("action.out").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let app = try ChildProcess(
            "/usr/bin/notify-send", ["--wait", "--action=default=Open", "--action=later=Later", "Call", "Ann is calling"],
            environment: running.session.environment, standardOutput: output
        )
        defer { app.signal(SIGKILL) }
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 }, "\(running.notify.stderr)")
        running.session.dunstctl(["action", "0"])
        #expect(app.waitForExit(timeout: 20) == 0, "\(running.notify.stderr)")
        #expect((try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "default")
        // Answered: heraldd records the response and takes the notification off the list.
        #expect(running.session.wait(timeout: 20) { (try? running.list().isEmpty) == true })
    }

    @Test func theGatewayAnswersAsTheSpecificationSays() throws {
        let running = try Self.start()
        let information = running.gdbus("GetServerInformation", [])
        #expect(information.stdout.contains("('Herald', 'Herald'"), "\(information)")
        #expect(information.stdout.contains("'1.2')"))
        let capabilities = running.gdbus("GetCapabilities", []).stdout
        // dunst's, as far as Herald honours them: not its stacking hints.
        #expect(capabilities.contains("'body-markup'") && capabilities.contains("'actions'"), "\(capabilities)")
        #expect(!capabilities.contains("x-dunst-stack-tag"), "\(capabilities)")

        // An odd-length action list is a clear error, and the gateway keeps serving.
        let odd = running.gdbus("Notify", ["app", "0", "", "s", "b", "['lonely']", "{}", "--", "-1"])
        #expect(odd.status != 0)
        #expect(running.notifySend(["after", "the error"]).status == 0)
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 }, "\(running.notify.stderr)")

        // An image in the hints (image-data, 2×2 RGBA) is kept and passed on to the renderer.
        let pixels = Array(repeating: "byte 0x7f", count: 16).joined(separator: ", ")
        let imaged = running.gdbus(
            "Notify", ["org.example.photos", "0", "", "Photo", "from Ann", "[]", "{'image-data': <(2, 2, 8, true, 8, 4, [\(pixels)])>}", "--", "-1"]
        )
        #expect(imaged.status == 0 && imaged.stdout.hasPrefix("(uint32 "), "\(imaged)")
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 2 }, "\(running.notify.stderr)")
        #expect(!running.notify.stderr.contains("did not take"), "\(running.notify.stderr)")
        running.session.closeAll()
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 0 })

        // Replacing by id: the same app's notify-send -r replaces its notification in place.
        let first = running.notifySend(["-p", "-a", "org.example.backup", "Backup", "10%"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 })
        let again = running.notifySend(["-p", "-r", first, "-a", "org.example.backup", "Backup", "90%"]).stdout
        #expect(again.trimmingCharacters(in: .whitespacesAndNewlines) == first)
        #expect(running.session.wait(timeout: 20) { (try? running.list().filter { $0[pointer: "/app"] == .string("org.example.backup") }.count) == 1 })
        #expect(try running.list().first { $0[pointer: "/app"] == .string("org.example.backup") }?[pointer: "/content/body"] == .string("90%"))

        // CloseNotification from the person's own process closes it, in Herald's list too.
        #expect(running.gdbus("CloseNotification", [first]).status == 0)
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 0 }, "\(running.notify.stderr)")
        #expect(running.session.wait(timeout: 20) { (try? running.list().contains { $0[pointer: "/app"] == .string("org.example.backup") }) == false })
    }

    @Test(.enabled(if: FlatpakSandbox.isUsable, "bwrap cannot make a user namespace here"))
    func aSandboxedAppSpeaksOnlyAsItself() throws {
        let journal = JournalReader.isAvailable
        let running = try Self.start(heraldd: try HeraldProcess(.standalone, arguments: journal ? ["--log-target", "journal"] : []))
        let first = running.notifySend(["-p", "-a", "org.example.bank", "Bank", "Payment received"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 }, "\(running.notify.stderr)")

        let sandbox = FlatpakSandbox(app: "org.example.Game", socketFolder: running.session.folder.path)
        let environment = ["DBUS_SESSION_BUS_ADDRESS": running.session.busAddress]
        // It names another app in its hints, and tries to replace and to close the bank's notification.
        let posed = try sandbox.run(
            "/usr/bin/gdbus",
            ["call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
             "--method", "org.freedesktop.Notifications.Notify", "org.example.bank", first, "", "Bank", "Your account is locked",
             "[]", "{'desktop-entry': <'org.example.bank'>}", "--", "-1"],
            binding: running.session.folder.path, environment: environment
        )
        #expect(posed.status == 0, "\(posed)")
        #expect(!posed.stdout.contains("(uint32 \(first),)"), "a sandboxed app took another app's id: \(posed.stdout)")
        let closed = try sandbox.run(
            "/usr/bin/gdbus",
            ["call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
             "--method", "org.freedesktop.Notifications.CloseNotification", first],
            binding: running.session.folder.path, environment: environment
        )
        #expect(closed.status == 0)
        #expect(running.session.wait(timeout: 20) { (try? running.list().count) == 2 }, "\(running.notify.stderr)")
        let apps = Set(try running.list().compactMap { $0[pointer: "/app"]?.stringValue })
        #expect(apps == ["org.example.bank", "org.example.Game"])
        // The bank's own notification is untouched: its body is still its own.
        let bank = try running.list().first { $0[pointer: "/app"] == .string("org.example.bank") }
        #expect(bank?[pointer: "/content/body"] == .string("Payment received"))
        // The person's own dunstctl reaches dunst through the gateway.
        #expect(running.session.displayedCount == 2)
        // The renderer's own interfaces are the person's: dunstctl's history would show the
        // sandbox every other app's notifications.
        let history = try sandbox.run(
            "/bin/sh",
            ["-c", "busctl --user call org.freedesktop.Notifications /org/freedesktop/Notifications org.dunstproject.cmd0 NotificationListHistory 2>&1"],
            binding: running.session.folder.path, environment: environment
        )
        // busctl names the error, org.freedesktop.DBus.Error.AccessDenied, by its errno.
        #expect(history.status != 0 && history.stdout.contains("Access denied"), "\(history)")
        guard journal else { return }
        // The journal says which app was verified, by what, and through which gateway.
        let entries = try JournalReader(pid: running.heraldd.process.pid)
            .waitForEntries(count: 2, matching: ["HERALD_METHOD=update-content", "HERALD_GATEWAY=freedesktop"])
        let game = try #require(entries.first { $0.field("HERALD_APP") == "org.example.Game" })
        #expect(game.field("HERALD_APP_VERIFIED") == "1")
        #expect(game.field("HERALD_APP_SOURCE") == "flatpak")
        let bankEntry = try #require(entries.first { $0.field("HERALD_APP") == "org.example.bank" })
        #expect(bankEntry.field("HERALD_APP_VERIFIED") == "0")
        #expect(bankEntry.field("HERALD_APP_SOURCE") == nil)
    }

    /// An app that floods the gateway (10,000 Notify calls sent without waiting, one with a
    /// 50 MB image, invalid hints) gets its answers; the person's next notification still
    /// shows, and herald-notify's memory stays bounded.
    @Test func aFloodingAppLeavesTheGatewayServing() throws {
        // heraldd with room for the flood's events in its presenter's unread output: on a
        // loaded machine the debug herald-notify can read nothing for 2 s, and heraldd then
        // closes it by its own rule (tested apart), which would send the rest of the flood
        // to dunst directly, not what this test is about.
        let running = try Self.start(heraldd: HeraldProcess(.standalone, arguments: ["--max-unread-bytes", "\(256 << 20)"]))
        // Silenced, so that dunst draws none of the flood.
        try running.client.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        let app = try SessionBus(address: running.session.busAddress)
        func notify(_ index: Int, hints: [(key: String, value: BusValue)] = [], wait: Bool = false) throws {
            let message = try Self.notifyCall(app, appName: "org.example.flood", summary: "Order \(index)", body: "Tracking number \(index * 7919)", hints: hints)
            if wait {
                app.callTimeout = .seconds(60)
                #expect(try app.call(message).readUInt32() > 0)
            } else {
                try app.send(message)
            }
        }
        let image = BusValue.structure([.int32(4096), .int32(3200), .int32(16384), .boolean(true), .int32(8), .int32(4), .bytes([UInt8](repeating: 7, count: 50 << 20))])
        try notify(0, hints: [("image-data", image), ("x-unknown", .double(1.5)), ("urgency", .string("not a byte"))], wait: true)
        for index in 1..<10_000 { try notify(index) }
        try app.flush()
        // Sent in order on one connection: once the last is listed, all were passed on.
        let last = running.session.wait(timeout: 120) {
            (try? running.client.call("list-notifications", ["app": "org.example.flood", "limit": .number(JSONNumber(1))]))?[
                pointer: "/result/notifications/0/content/title"] == .string("Order 9999")
        }
        #expect(last, "\(running.notify.stderr)")
        let count = try Self.count(running.client, app: "org.example.flood")
        #expect(count == 10_000, "\(count) listed; \(running.notify.stderr)")
        #expect(running.gdbus("GetServerInformation", []).stdout.contains("Herald"))
        #expect(running.notify.stderr.contains("hints not passed on"), "\(running.notify.stderr)")
        let resident = Self.residentKilobytes(of: running.notify.process.pid)
        #expect(resident.map { $0 < 200_000 } == true, "herald-notify holds \(String(describing: resident)) kB after the flood")

        // Turning the Focus off shows its digest bubble; the person's next notification comes beside it.
        try running.client.result("set-focus", ["focus": .null])
        #expect(running.notifySend(["Ann", "still here"]).status == 0)
        #expect(
            running.session.wait(timeout: 30) { running.session.displayedCount == 2 },
            "\(running.session.displayedCount) shown; \(running.notify.stderr)\n\(running.session.rendererDiagnosis())")
        running.session.closeAll()
        #expect(running.session.wait(timeout: 20) { running.session.history().contains { $0["body"] as? String == "still here" } })
    }

    /// Apps that go before their answers: one hangs up right after its calls (some of them
    /// read by the gateway only once it has gone, when it can no longer be identified), one
    /// exits while its notification, with an action, is shown. Their answers and signals go
    /// nowhere; the gateway goes on serving the person's other apps, and a click on the
    /// gone app's bubble still reaches heraldd.
    @Test func anAppThatGoesBeforeItsAnswerLeavesTheGatewayServing() throws {
        let running = try Self.start()
        do {
            let app = try SessionBus(address: running.session.busAddress)
            for index in 0..<50 {
                let message = try Self.notifyCall(app, appName: "org.example.gone", summary: "Gone \(index)", body: "", actions: ["default", "Open"])
                try app.send(message)
            }
            try app.flush()
        }  // hung up here, its answers unread
        // The one that exits while its bubble is shown: its action goes to no one.
        let shown = running.gdbus("Notify", ["org.example.brief", "0", "", "Brief", "then gone", "['default', 'Open']", "{}", "--", "-1"])
        #expect(shown.status == 0, "\(shown)")
        let briefShown = running.session.wait(timeout: 60) {
            (try? running.list().contains { $0[pointer: "/app"] == .string("org.example.brief") }) == true
        }
        #expect(briefShown, "\(running.notify.stderr)")
        let listedBefore = try running.list().count
        #expect(listedBefore >= 1 && listedBefore <= 51, "\(listedBefore) listed")

        // Every bubble's default action (the gone apps' included): each reaches heraldd,
        // which takes the answered notification off its list.
        let displayed = running.session.displayedCount
        for _ in 0..<displayed { running.session.dunstctl(["action", "0"]) }
        #expect(running.session.wait(timeout: 30) { (try? running.list().count).map { $0 < listedBefore } == true }, "\(running.notify.stderr)")
        #expect(running.notify.process.isRunning)
        let after = running.notifySend(["-p", "Ann", "still served"])
        #expect(after.status == 0 && UInt32(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(after)")
        #expect(running.session.wait(timeout: 30) { (try? running.list().contains { $0[pointer: "/content/body"] == .string("still served") }) == true })
    }

    /// KDE's inline reply through the gateway: an app's `inline-reply` action, and the text
    /// the renderer sends back with `NotificationReplied` (as Plasma does; dunst has no
    /// inline reply, so `dbus-send` sends it on the renderer's bus, for the bubble's id
    /// there) reaches the app that asked, as `NotificationReplied` of its own id.
    @Test func anInlineReplyGoesBackToTheAppThatAsked() throws {
        let running = try Self.start()
        let watch = try RendererIDs(address: running.session.rendererBusAddress!)
        let app = try SessionBus(address: running.session.busAddress)
        var replies: [(id: UInt32, text: String)] = []
        try app.addMatch("type='signal',interface='org.freedesktop.Notifications',member='NotificationReplied'") { message in
            if let id = try? message.readUInt32(), let text = try? message.readString() { replies.append((id, text)) }
        }
        let id = try app.call(
            Self.notifyCall(app, summary: "Ann", actions: ["inline-reply", "Reply"], hints: [("category", .string("im.received"))])
        ).readUInt32()
        let rendererID = try #require(try watch.id(ofSummary: "Ann"), "\(running.notify.stderr)")

        running.rendererReplies(to: rendererID, "On my way")
        let deadline = Date().addingTimeInterval(20)
        while replies.isEmpty, Date() < deadline { try app.wait(timeout: .seconds(1)) }
        #expect(replies.count == 1 && replies.first?.id == id && replies.first?.text == "On my way", "\(replies) \(running.notify.stderr)")
    }

    /// A portal of version 2 (xdg-desktop-portal 1.19 and later; Debian 12 has 1.16, so the
    /// test is the portal: it owns `org.freedesktop.portal.Desktop` and calls the backend as
    /// the portal does) with its new fields: a message with an `im.reply-with-text` button
    /// and a `call.accept` one without a label, `display-hint` and a silent `sound`. The
    /// notification arrives as the app, verified by the portal; the inline reply's text comes
    /// back to the portal as the version 2 `ActionInvoked` parameter.
    @Test func aPortalOfVersionTwoGetsItsInlineReplyBack() throws {
        let running = try Self.startWithPortal()
        guard let portal = try Self.standInForThePortal(running) else { return }
        let supported = running.session.run(
            "/usr/bin/gdbus",
            ["call", "--session", "--dest", "org.freedesktop.impl.portal.desktop.herald", "--object-path", "/org/freedesktop/portal/desktop",
             "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.impl.portal.Notification", "SupportedOptions"]
        )
        #expect(supported.stdout.contains("'im.reply-with-text'") && supported.stdout.contains("'im.received'"), "\(supported)")

        var invoked: [BusMessage] = []
        try portal.addMatch("type='signal',interface='org.freedesktop.impl.portal.Notification',member='ActionInvoked'") { invoked.append($0) }
        let watch = try RendererIDs(address: running.session.rendererBusAddress!)
        let buttons: [BusValue] = [
            .dictionary([BusEntry(key: "action", value: .variant(.string("reply"))), BusEntry(key: "purpose", value: .variant(.string("im.reply-with-text"))),
                         BusEntry(key: "target", value: .variant(.variant(.string("c-ann"))))]),
            .dictionary([BusEntry(key: "action", value: .variant(.string("accept"))), BusEntry(key: "purpose", value: .variant(.string("call.accept")))]),
        ]
        try Self.addNotification(from: portal, [
            (key: "title", value: BusValue.variant(.string("Ann Lee"))), (key: "body", value: .variant(.string("Lunch?"))),
            (key: "category", value: .variant(.string("im.received"))), (key: "display-hint", value: .variant(.array(element: "s", [.string("transient")]))),
            (key: "sound", value: .variant(.string("silent"))), (key: "buttons", value: .variant(.array(element: "a{sv}", buttons))),
        ])

        #expect(running.session.wait(timeout: 20) {
            (try? running.list())?.first?[pointer: "/app"] == .string("org.example.Chat")
        }, "\(running.notify.stderr)")
        let rendererID = try #require(try watch.id(ofSummary: "Ann Lee"), "\(running.notify.stderr)")
        running.rendererReplies(to: rendererID, "On my way")
        let deadline = Date().addingTimeInterval(20)
        while invoked.isEmpty, Date() < deadline { try portal.wait(timeout: .seconds(1)) }
        let signal = try #require(invoked.first, "\(running.notify.stderr)")
        #expect(try signal.readString() == "org.example.Chat")
        #expect(try signal.readString() == "m1")
        #expect(try signal.readString() == "reply")
        let parameter = try signal.readValue(byteLimit: 1 << 16)
        guard case .array(_, let values) = parameter else { Issue.record("parameter \(parameter)"); return }
        #expect(values.count == 3, "\(values)")
        #expect(values.first?.innermost.stringValue == "c-ann" && values.last?.innermost.stringValue == "On my way", "\(values)")
    }

    /// A Flatpak chat app's avatar: Debian's portal passes an app's icon as its bytes
    /// (`("bytes", <ay>)`, a file icon read for it). The bubble shows it, from a 0600 file
    /// herald-notify writes and removes when the bubble closes.
    @Test func aPortalAppsBytesIconIsItsBubblesImage() throws {
        try expectBubbleImage(fromPortalIcon: .structure([.string("bytes"), .variant(.bytes(Self.onePixelPNG))]))
    }

    /// Portal 1.19 (version 2) passes the same icon as a sealed memfd,
    /// `("file-descriptor", <h>)`: herald-notify reads it while the call is its own. The
    /// test's descriptor is an unlinked file's, a regular file as a memfd is (Glibc's
    /// module has no `memfd_create` for Swift).
    @Test func aPortalOfVersionTwosDescriptorIconIsItsBubblesImage() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-icon-\(getpid())").path
        try #require(FileManager.default.createFile(atPath: path, contents: Data(Self.onePixelPNG)))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        unlink(path)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try expectBubbleImage(fromPortalIcon: .structure([.string("file-descriptor"), .variant(.fileDescriptor(BusFileDescriptor(number: descriptor)))]))
    }

    private static let onePixelPNG = [UInt8](
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!)

    private func expectBubbleImage(fromPortalIcon icon: BusValue) throws {
        let running = try Self.startWithPortal()
        guard let portal = try Self.standInForThePortal(running) else { return }
        try Self.addNotification(from: portal, [
            (key: "title", value: BusValue.variant(.string("Ann Lee"))), (key: "body", value: .variant(.string("Lunch?"))),
            (key: "icon", value: .variant(icon)),
        ])

        let images = running.session.runtimeDirectory + "/herald-notify"
        func written() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: images)) ?? []).filter { $0.hasSuffix(".png") } }
        #expect(running.session.wait(timeout: 20) { written().count == 1 }, "\(running.notify.stderr)")
        let file = images + "/" + (written().first ?? "")
        #expect(FileManager.default.contents(atPath: file).map([UInt8].init) == Self.onePixelPNG)
        #expect((try? FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
        #expect(running.session.displayedCount == 1)
        running.session.closeAll()
        #expect(running.session.wait(timeout: 20) { written().isEmpty }, "the file goes with the bubble: \(running.notify.stderr)")
        #expect(running.session.history().first?["summary"] as? String == "Ann Lee")
    }

    /// A connection that owns `org.freedesktop.portal.Desktop`, which the backend answers:
    /// the test is the portal, speaking the version 2 that Debian's 1.16 does not.
    static func standInForThePortal(_ running: Running) throws -> SessionBus? {
        let portal = try SessionBus(address: running.session.busAddress)
        guard case .owned = try portal.requestName("org.freedesktop.portal.Desktop") else {
            Issue.record("the test could not stand in for the portal")
            return nil
        }
        return portal
    }

    /// The portal's `AddNotification` of notification `m1` of `org.example.Chat` with
    /// `fields`, sent by `portal` to Herald's backend, and its answer waited for.
    static func addNotification(from portal: SessionBus, _ fields: [(key: String, value: BusValue)]) throws {
        let add = try portal.methodCall(
            destination: "org.freedesktop.impl.portal.desktop.herald", path: "/org/freedesktop/portal/desktop",
            interface: "org.freedesktop.impl.portal.Notification", member: "AddNotification"
        )
        try add.append("org.example.Chat")
        try add.append("m1")
        try add.append(fields)
        _ = try portal.call(add)
    }

    static func startWithPortal() throws -> Running {
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(rendererBus: true)
        let notify = try HeraldNotifyProcess(
            session: session, socket: heraldd.socketPath, arguments: ["--gateway", "--portal", "--renderer-bus", session.rendererBusAddress!]
        )
        #expect(notify.waitForLog(containing: "for xdg-desktop-portal"), "\(notify.stderr)")
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        return Running(heraldd: heraldd, session: session, notify: notify, client: try heraldd.connect())
    }

    /// The gateway's `Notify`, from `app`, not yet sent.
    static func notifyCall(
        _ app: SessionBus, appName: String = "org.example.chat", summary: String, body: String = "Lunch?", actions: [String] = [],
        hints: [(key: String, value: BusValue)] = []
    ) throws -> BusMessage {
        let message = try app.methodCall(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", member: "Notify"
        )
        try message.append(appName)
        try message.append(UInt32(0))
        try message.append("")
        try message.append(summary)
        try message.append(body)
        try message.append(actions)
        try message.append(hints)
        try message.append(Int32(-1))
        return message
    }

    /// The ids the renderer answers Herald's `Notify` calls with, seen by a monitor of the
    /// renderer's bus: how a test names a bubble in a signal the renderer would send.
    final class RendererIDs {
        let monitor: BusMonitor
        private var calls: [String: String] = [:]

        init(address: String) throws {
            monitor = try BusMonitor(
                address: address, rules: ["type='method_call',interface='org.freedesktop.Notifications',member='Notify'", "type='method_return'"]
            )
        }

        /// The renderer's id of the bubble whose summary is `summary`, once it is shown.
        func id(ofSummary summary: String) throws -> UInt32? {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                guard let message = try monitor.next(timeout: .seconds(1)) else { continue }
                if let cookie = message.replyCookie, let destination = message.destination {
                    if calls["\(destination) \(cookie)"] == summary { return try? message.readUInt32() }
                } else if message.member == "Notify", let sender = message.sender {
                    _ = try? message.readString()
                    _ = try? message.readUInt32()
                    _ = try? message.readString()
                    if let text = try? message.readString() { calls["\(sender) \(message.cookie)"] = text }
                }
            }
            return nil
        }
    }

    /// How many notifications `app` has in the list, page by page.
    static func count(_ client: UnixSocketClient, app: String) throws -> Int {
        var count = 0
        var params: JSONObject = ["app": .string(app)]
        while true {
            let page = try client.call("list-notifications", .object(params))
            count += page[pointer: "/result/notifications"]?.arrayValue?.count ?? 0
            guard let cursor = page[pointer: "/result/nextCursor"] else { return count }
            params["cursor"] = cursor
        }
    }

    static func residentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// The renderer crashes: apps still get their ids and Herald still lists what they
    /// send; when a renderer is back, what waited is shown.
    @Test func aRendererThatCrashesLosesNothing() throws {
        let running = try Self.start()
        running.session.stopServer()
        let sent = running.notifySend(["-p", "Mail", "while dunst was away"])
        #expect(sent.status == 0 && UInt32(sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(sent)")
        #expect(running.session.wait(timeout: 20) { (try? running.list().count) == 1 }, "\(running.notify.stderr)")
        #expect(running.notify.waitForLog(containing: "waiting for one"), "\(running.notify.stderr)")
        try running.session.startServer()
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 }, "\(running.notify.stderr)")
        running.session.closeAll()
        #expect(running.session.wait(timeout: 20) { running.session.history().first?["body"] as? String == "while dunst was away" })
    }

    /// The app's answer waits for heraldd's decision so that the bubble goes first, but a
    /// heraldd that does not answer (stopped here) does not hold the app's call: notify-send
    /// gets its id, and the notification is decided and shown once heraldd goes on.
    @Test func anAppIsAnsweredWhileHeralddDoesNotAnswer() throws {
        let heraldd = try HeraldProcess(.standalone)
        let running = try Self.start(heraldd: heraldd)
        heraldd.process.signal(SIGSTOP)
        let sent = running.notifySend(["-p", "Mail", "while heraldd is stopped"])
        heraldd.process.signal(SIGCONT)
        #expect(sent.status == 0, "\(running.notify.stderr)")
        let id = UInt32(sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(id != nil && id != 0, "notify-send -p printed \(sent.stdout)")
        #expect(running.session.wait(timeout: 20) { (try? running.list().count) == 1 }, "\(running.notify.stderr)")
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 }, "\(running.notify.stderr)")
        #expect(!running.notify.stderr.contains("shown directly"), "\(running.notify.stderr)")
    }

    /// A notification server the person started on their session bus before the gateway
    /// (a dunst of their own, run by hand or by D-Bus activation) owns
    /// `org.freedesktop.Notifications` first: the gateway leaves it alone and waits in the
    /// bus's queue, and when that server exits the bus hands the name over, so apps'
    /// notifications go through Herald from then on, without a restart.
    @Test func theGatewayServesOnceTheServerThatOwnedTheNameExits() throws {
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(rendererBus: true)
        let standalone = try session.startServerOnSessionBus()
        defer { standalone.signal(SIGKILL) }
        let notify = try HeraldNotifyProcess(
            session: session, socket: heraldd.socketPath, arguments: ["--gateway", "--renderer-bus", session.rendererBusAddress!]
        )
        let running = Running(heraldd: heraldd, session: session, notify: notify, client: try heraldd.connect())
        #expect(notify.waitForLog(containing: "waits in the bus's queue"), "\(notify.stderr)")
        #expect(notify.stderr.contains("(dunst, pid \(standalone.pid))"), "the log names the owner: \(notify.stderr)")
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        // The person's own dunst answers, and an app's notification goes to it, not to Herald.
        #expect(running.gdbus("GetServerInformation", []).stdout.contains("('dunst'"))
        #expect(running.notifySend(["Mail", "before"]).status == 0)
        #expect(!notify.stderr.contains("as Herald's gateway"), "\(notify.stderr)")

        // It goes (SIGKILL, as stopServer() ends the renderer: a child may inherit SIGTERM blocked).
        standalone.signal(SIGKILL)
        #expect(standalone.waitForExit(timeout: 20) != nil)
        #expect(notify.waitForLog(containing: "as Herald's gateway"), "\(notify.stderr)")
        let information = running.gdbus("GetServerInformation", [])
        #expect(information.stdout.contains("('Herald', 'Herald'"), "\(information) \(notify.stderr)")
        let sent = running.notifySend(["-p", "Mail", "after"])
        #expect(sent.status == 0 && UInt32(sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) != nil, "\(sent)")
        #expect(session.wait(timeout: 20) { (try? running.list().count) == 1 }, "\(notify.stderr)")
        #expect(try running.list().first?[pointer: "/content/body"] == .string("after"))
        // Shown by the renderer on Herald's bus (dunstctl reaches it through the gateway now).
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        session.closeAll()
        #expect(session.wait(timeout: 20) { session.history().first?["body"] as? String == "after" })
        #expect(notify.stderr.components(separatedBy: "as Herald's gateway").count == 2, "served once: \(notify.stderr)")
    }

    /// Another Herald's gateway serves the portal's backend first (the test's own connection
    /// stands in for it): this one waits in the bus's queue for the backend's name, and the
    /// portal's calls reach it once the other goes.
    @Test func thePortalBackendIsServedOnceAnotherHeraldLetsItGo() throws {
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(rendererBus: true)
        var other: SessionBus? = try SessionBus(address: session.busAddress)
        guard let request = try other?.requestName("org.freedesktop.impl.portal.desktop.herald"), case .owned = request else {
            Issue.record("the test could not stand in for another Herald")
            return
        }
        let notify = try HeraldNotifyProcess(
            session: session, socket: heraldd.socketPath, arguments: ["--gateway", "--portal", "--renderer-bus", session.rendererBusAddress!]
        )
        let running = Running(heraldd: heraldd, session: session, notify: notify, client: try heraldd.connect())
        #expect(notify.waitForLog(containing: "another Herald serves the portal"), "\(notify.stderr)")
        #expect(notify.waitForLog(containing: "as Herald's gateway"), "\(notify.stderr)")
        #expect(!notify.stderr.contains("for xdg-desktop-portal"), "\(notify.stderr)")

        other = nil  // its connection closes: the bus gives the name to the next in its queue
        #expect(notify.waitForLog(containing: "for xdg-desktop-portal"), "\(notify.stderr)")
        guard let portal = try Self.standInForThePortal(running) else { return }
        try Self.addNotification(from: portal, [(key: "title", value: BusValue.variant(.string("Ann Lee")))])
        #expect(session.wait(timeout: 20) { (try? running.list())?.first?[pointer: "/app"] == .string("org.example.Chat") }, "\(notify.stderr)")
    }

    @Test func whileHeralddIsAwayNotificationsAreShownDirectlyAndThePersonIsToldOnce() throws {
        let heraldd = try HeraldProcess(.standalone)
        let running = try Self.start(heraldd: heraldd)
        heraldd.process.signal(SIGKILL)
        _ = heraldd.process.waitForExit(timeout: 10)
        #expect(running.notify.waitForLog(containing: "lost heraldd"), "\(running.notify.stderr)")
        #expect(running.notifySend(["Mail", "one"]).status == 0)
        #expect(running.notifySend(["Mail", "two"]).status == 0)
        // Both, and one notice that Herald is not deciding.
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 3 }, "\(running.notify.stderr)")
        running.session.closeAll()
        #expect(running.session.wait(timeout: 20) { running.session.history().count == 3 })
        let summaries = running.session.history().compactMap { $0["summary"] as? String }.sorted()
        #expect(summaries == ["Herald is not running", "Mail", "Mail"], "\(summaries)")
        #expect(running.notify.stderr.components(separatedBy: "shown directly").count == 2, "\(running.notify.stderr)")

        // Replaced by its app while shown directly, its bubble is replaced (the renderer's id
        // of it is kept for the app's id), and the app's CloseNotification closes it.
        let first = running.notifySend(["-p", "-a", "org.example.backup", "Backup", "10%"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let again = running.notifySend(["-p", "-r", first, "-a", "org.example.backup", "Backup", "90%"]).stdout
        #expect(again.trimmingCharacters(in: .whitespacesAndNewlines) == first)
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 1 }, "\(running.notify.stderr)")
        #expect(running.gdbus("CloseNotification", [first]).status == 0)
        #expect(running.session.wait(timeout: 20) { running.session.displayedCount == 0 }, "\(running.notify.stderr)")
        #expect(running.session.history().first?["body"] as? String == "90%", "\(running.session.history().first ?? [:])")
    }
}

extension HeraldNotifyGatewayEndToEndTests {
    /// heraldd gone and an app sending 2,000 notifications at once: the gateway shows each
    /// directly without waiting on the renderer for each, so it goes on answering the
    /// person's bus meanwhile (calls asked right after the flood are answered, each given a
    /// generous 5 s, where waiting on dunst for each held them for tens of seconds), and
    /// dunst shows every one of them, with the one notice that Herald is not running.
    @Test func aFloodWhileHeralddIsAwayLeavesTheGatewayAnswering() throws {
        let heraldd = try HeraldProcess(.standalone)
        // Twenty bubbles at once, the rest in dunst's queue: drawing thousands at once for
        // each new one, dunst itself would take minutes.
        let running = try Self.start(heraldd: heraldd, displayLimit: 20)
        heraldd.process.signal(SIGKILL)
        _ = heraldd.process.waitForExit(timeout: 10)
        #expect(running.notify.waitForLog(containing: "lost heraldd"), "\(running.notify.stderr)")
        let app = try SessionBus(address: running.session.busAddress)
        let flood = 2_000
        for index in 0..<flood { try app.send(Self.notifyCall(app, appName: "org.example.flood", summary: "Order \(index)")) }
        try app.flush()

        let person = try SessionBus(address: running.session.busAddress)
        person.callTimeout = .seconds(5)
        var answered = 0
        for _ in 0..<10 where (try? DesktopNotifications(bus: person).serverInformation().name) == "Herald" { answered += 1 }
        let renderer = try SessionBus(address: running.session.rendererBusAddress!)
        let shownWhenAnswered = Self.dunstCount(on: renderer)
        #expect(answered == 10, "\(answered) of 10 answered; dunst had \(String(describing: shownWhenAnswered)) then; \(running.notify.stderr)")
        // Answered while dunst was still working through the flood (it takes tens of seconds).
        #expect(shownWhenAnswered.map { $0 < flood + 1 } == true, "dunst had \(String(describing: shownWhenAnswered))")

        let all = running.session.wait(timeout: 300) { Self.dunstCount(on: renderer) == flood + 1 }
        #expect(
            all,
            "dunst has \(String(describing: Self.dunstCount(on: renderer))) of \(flood + 1); \(running.notify.stderr)\n\(running.session.rendererDiagnosis())")
        #expect(running.notify.stderr.components(separatedBy: "shown directly").count == 2, "\(running.notify.stderr)")
        #expect(!running.notify.stderr.contains("did not take"), "\(running.notify.stderr)")
    }

    /// The notifications dunst has taken on `renderer`: shown, waiting to be, and in its
    /// history (`dunstctl count`'s three numbers, read as its properties).
    static func dunstCount(on renderer: SessionBus) -> Int? {
        var total = 0
        for length in ["displayedLength", "waitingLength", "historyLength"] {
            guard
                let get = try? renderer.methodCall(
                    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.DBus.Properties", member: "Get"
                ),
                (try? get.append("org.dunstproject.cmd0")) != nil, (try? get.append(length)) != nil,
                let count = (try? renderer.call(get).readValue(byteLimit: 64))?.innermost.integerValue
            else { return nil }
            total += count
        }
        return total
    }
}

/// What the gateway's tests need besides a desktop session: libnotify's `notify-send`
/// (libnotify-bin) and GLib's `gdbus` (libglib2.0-bin).
enum GatewayTools {
    static var available: Bool {
        DesktopSession.available && ["/usr/bin/notify-send", "/usr/bin/gdbus"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let reason = "no notify-send (libnotify-bin), gdbus (libglib2.0-bin) or desktop tools here: the gateway tests are skipped"
}
