import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// herald-notify asks the person (issues 13 and 15), with the real heraldd under the `prompt`
/// policy, dbus-daemon, Xvfb and dunst: an app's authorization request becomes a bubble with
/// "Allow" and "Don't Allow"; "Allow" (through dunst's context menu) reaches the app as
/// `focus-changed` authorized and closes the bubble; a request answered elsewhere (heraldctl,
/// a direct `set-focus-authorization`) closes its bubble; one made before herald-notify
/// started is asked when it subscribes (`list-authorization-requests`).
@Suite(.serialized, .enabled(if: PresenterEventsGate.enabled, Comment(rawValue: PresenterEventsGate.reason)))
struct HeraldNotifyAuthorizationEndToEndTests {
    static let prompt = "Share your Focus status?"

    /// `request-focus {app, requestAuthorization, subscribe}` on `client`: notDetermined, waiting.
    static func ask(_ app: String, on client: UnixSocketClient) throws {
        let asked = try client.call("request-focus", ["app": .string(app), "requestAuthorization": true, "subscribe": true])
        #expect(asked[pointer: "/result/authorizationStatus"]?.stringValue == "notDetermined", "\(asked)")
    }

    /// The params of the next `focus-changed` `client` hears within 20 s, or nil.
    static func focusChanged(_ client: UnixSocketClient) -> JSONValue? {
        (try? ResponsesEndToEndTests.next("focus-changed", from: client)) ?? nil
    }

    @Test func thePersonAnswersThePromptAndAnswersElsewhereCloseIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-prompt-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/dmenu"
        let offered = folder + "/offered"
        // dunst's context menu hands the script one line per action: it keeps them, and picks "Allow".
        try "#!/bin/sh\ntee '\(offered)' | grep -m1 '^#Allow '\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let heraldd = try HeraldProcess(.standalone, arguments: ["--focus-authorization", "prompt"])
        let session = try DesktopSession(dmenu: script)

        // Asked before herald-notify runs: it is asked once herald-notify subscribes.
        let early = try heraldd.connect()
        try Self.ask("org.example.early", on: early)
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath)
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        // Answered by a direct set-focus-authorization: its bubble closes, and the app hears it.
        let control = try heraldd.connect()
        let denied = try control.call("set-focus-authorization", ["app": "org.example.early", "status": "denied"])
        #expect(denied[pointer: "/result/status"]?.stringValue == "denied", "\(denied)")
        let earlyHeard = try #require(Self.focusChanged(early), "\(notify.stderr)")
        #expect(earlyHeard[pointer: "/authorizationStatus"]?.stringValue == "denied", "\(earlyHeard)")
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "\(notify.stderr)")

        // The app asks with herald-notify running: the bubble offers both actions, and "Allow" answers.
        let chat = try heraldd.connect()
        try Self.ask("org.example.chat", on: chat)
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        #expect(session.dunstctl(["context"]).status == 0)
        let heard = try #require(Self.focusChanged(chat), "\(notify.stderr)\(session.dunstLog)\((try? String(contentsOfFile: offered, encoding: .utf8)) ?? "nothing offered")")
        #expect(heard[pointer: "/authorizationStatus"]?.stringValue == "authorized", "\(heard)")
        #expect(heard[pointer: "/focusStatus/isFocused"] == false, "\(heard)")
        let lines = ((try? String(contentsOfFile: offered, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("#Allow ") } && lines.contains { $0.hasPrefix("#Don't Allow ") }, "\(lines)")
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "\(notify.stderr)")
        let settings = try control.call("get-app-settings", ["app": "org.example.chat"])
        #expect(settings[pointer: "/result/authorizationStatus"]?.stringValue == "authorized", "\(settings)")

        // Answered with heraldctl: its bubble closes.
        let mail = try heraldd.connect()
        try Self.ask("org.example.mail", on: mail)
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        let allowed = try Heraldctl.run(["authorization", "allow", "org.example.mail", "--socket", heraldd.socketPath])
        #expect(allowed.status == 0, "\(allowed)")
        let mailHeard = try #require(Self.focusChanged(mail), "\(notify.stderr)")
        #expect(mailHeard[pointer: "/authorizationStatus"]?.stringValue == "authorized", "\(mailHeard)")
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "\(notify.stderr)")

        // What dunst showed: three prompts, each naming its app, none still waiting.
        _ = session.wait(timeout: 20) { session.history().count == 3 }
        let shown = session.history()
        #expect(shown.allSatisfy { $0["summary"] as? String == Self.prompt && $0["appname"] as? String == "Herald" }, "\(shown)")
        let bodies = shown.compactMap { $0["body"] as? String }.sorted()
        #expect(bodies == ["org.example.chat", "org.example.early", "org.example.mail"].map { "\($0) wants to know when you have a Focus on." }, "\(bodies)")
        let waiting = try control.call("list-authorization-requests")
        #expect(waiting[pointer: "/result/requests"]?.arrayValue?.isEmpty == true, "\(waiting)")
    }
}

/// The prompts across a reconnect, against a stand-in for heraldd: the requests
/// `list-authorization-requests` lists are asked, and a prompt whose request was answered
/// while herald-notify was away is closed when it subscribes again.
@Suite(.serialized, .enabled(if: DesktopSession.available, Comment(rawValue: DesktopSession.unavailableReason)))
struct HeraldNotifyAuthorizationReconnectEndToEndTests {
    @Test func waitingRequestsAreAskedAndAnsweredOnesClosedAfterAReconnect() throws {
        let session = try DesktopSession()
        let daemon = try StandInDaemon(path: session.folder.appendingPathComponent("herald.sock").path)
        let notify = try HeraldNotifyProcess(session: session, socket: daemon.path)
        let (first, _) = try daemon.acceptPresenter(waitingRequests: PresenterLines.waitingRequests(["org.example.early"]))
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        try first.send(PresenterLines.authorizationRequested(app: "org.example.chat"))
        #expect(session.wait(timeout: 20) { session.displayedCount == 2 }, "\(notify.stderr)")

        // heraldd goes; early's request is answered meanwhile: only chat's is listed on return.
        shutdown(first.fd, Int32(SHUT_RDWR))
        let (second, _) = try daemon.acceptPresenter(waitingRequests: PresenterLines.waitingRequests(["org.example.chat"]))
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")
        try second.send(PresenterLines.authorizationAnswered(app: "org.example.chat"))
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "\(notify.stderr)")
        _ = session.wait(timeout: 20) { session.history().count == 2 }
        let bodies = session.history().compactMap { $0["body"] as? String }.sorted()
        #expect(bodies == ["org.example.chat wants to know when you have a Focus on.", "org.example.early wants to know when you have a Focus on."], "\(bodies)")
        withExtendedLifetime(second) {}
    }
}
