import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Focus authorization and capabilities are the person's: an app's prompt reaches their
/// desktop, their answer reaches the app, and they decide their own uid's apps without
/// being an administrator — not another uid's, and not the critical capability.
@Suite("Focus authorization belongs to the person, end to end", .enabled(if: getuid() == 0, "needs root to act as other uids"))
struct AuthorizationEndToEndTests {
    static let app = "org.example.chat"

    /// setpriv as `uid` (and gid `uid`), no supplementary groups: never an administrator.
    static func asUser(_ uid: Int) -> [String] {
        ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
    }

    /// The one response of `method` called as `uid`.
    static func call(_ uid: Int, _ method: String, _ params: JSONValue, on herald: HeraldProcess) throws -> JSONValue {
        try #require(try callAsUser(uid, [request(method, params)], socket: herald.socketPath).first)
    }

    /// The JSON lines a `heraldctl … --json` printed whose method is `method`.
    static func lines(_ watcher: Heraldctl.Running, method: String) -> [[String: Any]] {
        watcher.finish(status: nil).jsonLines.compactMap { $0 as? [String: Any] }.filter { $0["method"] as? String == method }
    }

    @Test("The prompt reaches the person's desktops; their answer reaches the subscribed app and every desktop")
    func promptAndAnswer() throws {
        let herald = try HeraldProcess.openToEveryone()
        let socket = ["--socket", herald.socketPath]
        let desktop = try Heraldctl.start(["watch", "--notifications"] + socket, prefix: Self.asUser(1000))
        #expect(desktop.waitForOutput(containing: "watching notifications of uid 1000"), "\(desktop.stdout)\(desktop.stderr)")
        let secondDesktop = try Heraldctl.start(["watch", "--notifications", "--json"] + socket, prefix: Self.asUser(1000))
        #expect(secondDesktop.waitForOutput(containing: #"{"uid":1000}"#), "\(secondDesktop.stdout)\(secondDesktop.stderr)")
        let otherPerson = try Heraldctl.start(["watch", "--notifications", "--json"] + socket, prefix: Self.asUser(1001))
        #expect(otherPerson.waitForOutput(containing: #"{"uid":1001}"#), "\(otherPerson.stdout)\(otherPerson.stderr)")
        let app = try Heraldctl.start(["watch", "--app", Self.app, "--json"] + socket, prefix: Self.asUser(1000))
        #expect(app.waitForOutput(containing: #""authorizationStatus":"notDetermined""#), "\(app.stdout)\(app.stderr)")

        // The app asks, under the default prompt policy: a request waits, and the desktops hear it once.
        let ask: JSONValue = ["app": .string(Self.app), "requestAuthorization": true]
        let asked = try Self.call(1000, "request-focus", ask, on: herald)
        #expect(asked[pointer: "/result/authorizationStatus"]?.stringValue == "notDetermined", "\(asked)")
        #expect(
            desktop.waitForOutput(containing: "authorization requested: org.example.chat (uid 1000) asks to know when you have a Focus on"),
            "\(desktop.stdout)")
        #expect(secondDesktop.waitForOutput(containing: "authorization-requested"), "\(secondDesktop.stdout)")
        _ = try Self.call(1000, "request-focus", ask, on: herald)
        let waiting = try Self.call(1000, "list-authorization-requests", [:], on: herald)
        let requests = try #require(waiting[pointer: "/result/requests"]?.arrayValue, "\(waiting)")
        #expect(requests.count == 1 && requests.first?[pointer: "/app"]?.stringValue == Self.app, "\(waiting)")
        #expect(requests.first?[pointer: "/uid"] == .number(JSONNumber(1000)))
        let settings = try Self.call(1000, "get-app-settings", ["app": .string(Self.app)], on: herald)
        #expect(settings[pointer: "/result/authorizationRequestedAt"] == requests.first?[pointer: "/requestedAt"], "\(settings)")

        // The person allows it: the app is told, and every desktop drops its prompt.
        let answered = try Self.call(1000, "set-focus-authorization", ["app": .string(Self.app), "status": "authorized"], on: herald)
        #expect(answered[pointer: "/result/status"]?.stringValue == "authorized", "\(answered)")
        #expect(app.waitForOutput(containing: #""authorizationStatus":"authorized","focusStatus":{"isFocused":false}"#), "\(app.stdout)")
        #expect(secondDesktop.waitForOutput(containing: "authorization-answered"), "\(secondDesktop.stdout)")
        #expect(desktop.waitForOutput(containing: "authorization answered org.example.chat (uid 1000): authorized"), "\(desktop.stdout)")
        let answer = Self.lines(secondDesktop, method: "authorization-answered").first?["params"] as? [String: Any]
        #expect(answer?["authorizationStatus"] as? String == "authorized" && answer?["uid"] as? Int == 1000, "\(secondDesktop.stdout)")
        let none = try Self.call(1000, "list-authorization-requests", [:], on: herald)
        #expect(none[pointer: "/result/requests"]?.arrayValue?.isEmpty == true, "\(none)")

        // Asking again once decided records nothing; the person then denies it, and the app hears that too.
        _ = try Self.call(1000, "request-focus", ask, on: herald)
        _ = try Self.call(1000, "set-focus-authorization", ["app": .string(Self.app), "status": "denied"], on: herald)
        #expect(app.waitForOutput(containing: #""authorizationStatus":"denied","focusStatus":null"#), "\(app.stdout)")
        let changes = Self.lines(app, method: "focus-changed").compactMap { ($0["params"] as? [String: Any])?["authorizationStatus"] as? String }
        #expect(changes == ["authorized", "denied"], "\(app.stdout)")
        #expect(Self.lines(secondDesktop, method: "authorization-requested").count == 1, "\(secondDesktop.stdout)")
        // Another person's desktop heard nothing of it.
        #expect(!otherPerson.stdout.contains("authorization"), "\(otherPerson.stdout)")
        for watcher in [desktop, secondDesktop, otherPerson, app] {
            watcher.process.signal(SIGINT)
            #expect(watcher.process.waitForExit(timeout: 10) == 0)
        }
    }

    @Test("An unprivileged uid decides and reads its own apps' settings, not another uid's, and not critical")
    func ownDecisions() throws {
        let herald = try HeraldProcess.openToEveryone()
        let own = try Self.call(1000, "set-capabilities", ["app": .string(Self.app), "timeSensitive": false], on: herald)
        #expect(own[pointer: "/result/timeSensitive"] == .bool(false) && own[pointer: "/result/uid"] == .number(JSONNumber(1000)), "\(own)")
        let allowed = try Self.call(1000, "set-focus-authorization", ["app": .string(Self.app), "uid": 1000, "status": "authorized"], on: herald)
        #expect(allowed[pointer: "/result/status"]?.stringValue == "authorized", "\(allowed)")
        let read = try Self.call(1000, "get-app-settings", ["app": .string(Self.app)], on: herald)
        #expect(read[pointer: "/result/authorizationStatus"]?.stringValue == "authorized", "\(read)")
        #expect(read[pointer: "/result/timeSensitive"] == .bool(false) && read[pointer: "/result/critical"] == .bool(false), "\(read)")
        #expect(read[pointer: "/result/authorizationRequestedAt"] == nil, "\(read)")

        // Each error: another uid's settings, critical, restricted, a typo.
        let cases: [(String, JSONValue, Int, String)] = [
            ("set-focus-authorization", ["app": .string(Self.app), "uid": 1001, "status": "denied"], 1006, "/uid"),
            ("set-capabilities", ["app": .string(Self.app), "uid": 1001, "timeSensitive": false], 1006, "/uid"),
            ("get-app-settings", ["app": .string(Self.app), "uid": 1001], 1006, "/uid"),
            ("list-authorization-requests", ["uid": 1001], 1006, "/uid"),
            ("set-capabilities", ["app": .string(Self.app), "critical": true], 1006, "/critical"),
            ("set-focus-authorization", ["app": .string(Self.app), "status": "restricted"], 1006, "/status"),
            ("set-capabilities", ["app": .string(Self.app), "critcal": true], -32602, "/critcal"),
            ("get-app-settings", ["app": "not an app"], -32602, "/app"),
        ]
        for (method, params, code, pointer) in cases {
            let response = try Self.call(1000, method, params, on: herald)
            #expect(response[pointer: "/error/code"] == .number(JSONNumber(code)), "\(method) \(params): \(response)")
            #expect(response[pointer: "/error/data/pointer"]?.stringValue == pointer, "\(method) \(params): \(response)")
            #expect(response[pointer: "/error/data/reason"]?.stringValue?.isEmpty == false, "\(response)")
        }
        // Nothing of uid 1001 changed; an administrator may name it, and grant critical.
        let other = try herald.connect().call("get-app-settings", ["app": .string(Self.app), "uid": 1001])
        #expect(other[pointer: "/result/authorizationStatus"]?.stringValue == "notDetermined", "\(other)")
        #expect(other[pointer: "/result/timeSensitive"] == .bool(true), "\(other)")
        let granted = try herald.connect().call("set-capabilities", ["app": .string(Self.app), "uid": 1000, "critical": true])
        #expect(granted[pointer: "/result/critical"] == .bool(true), "\(granted)")
        // The person's restricted-by-an-administrator app stays restricted.
        _ = try herald.connect().call("set-focus-authorization", ["app": .string(Self.app), "uid": 1000, "status": "restricted"])
        let undo = try Self.call(1000, "set-focus-authorization", ["app": .string(Self.app), "status": "authorized"], on: herald)
        #expect(undo[pointer: "/error/code"] == .number(JSONNumber(1006)) && undo[pointer: "/error/data/pointer"]?.stringValue == "/status")
        // heraldctl as the person: show and set their own.
        let shown = try Heraldctl.run(["capabilities", "show", Self.app, "--socket", herald.socketPath], prefix: Self.asUser(1000))
        #expect(shown.stdout == "org.example.chat (uid 1000): communication on, timeSensitive off, critical on\n", "\(shown)")
        let refused = try Heraldctl.run(["capabilities", "set", Self.app, "--no-critical", "--socket", herald.socketPath], prefix: Self.asUser(1000))
        #expect(refused.status == 1 && refused.stderr.contains("administrator"), "\(refused)")
    }
}

/// The policy's decisions reach the app's other subscriptions too.
@Suite("Authorization decided by the policy, end to end")
struct AuthorizationPolicyEndToEndTests {
    @Test("Under deny, another connection's request tells this subscription denied, without a focusStatus")
    func policyDecisionIsTold() throws {
        let herald = try HeraldProcess(arguments: ["--focus-authorization", "deny"])
        let subscriber = try herald.connect()
        let asking = try herald.connect()
        let started = try subscriber.call("request-focus", ["app": "org.example.chat", "subscribe": true], id: 1)
        #expect(started[pointer: "/result/authorizationStatus"]?.stringValue == "notDetermined", "\(started)")
        let asked = try asking.call("request-focus", ["app": "org.example.chat", "requestAuthorization": true], id: 2)
        #expect(asked[pointer: "/result/authorizationStatus"]?.stringValue == "denied", "\(asked)")
        let told = try #require(try subscriber.readJSON(), "no focus-changed")
        #expect(told[pointer: "/method"]?.stringValue == "focus-changed", "\(told)")
        #expect(told[pointer: "/params/authorizationStatus"]?.stringValue == "denied", "\(told)")
        #expect(told[pointer: "/params/focusStatus"] == .null, "\(told)")
        // Nothing waits: the policy decided.
        let waiting = try asking.call("list-authorization-requests", [:], id: 3)
        #expect(waiting[pointer: "/result/requests"]?.arrayValue?.isEmpty == true, "\(waiting)")
    }
}

/// A prompt made before a restart can be answered after it.
@Suite("Waiting authorization requests across a restart, end to end")
struct AuthorizationRestartEndToEndTests {
    @Test("A waiting request is in the snapshot SIGTERM writes, and is answered after the restart")
    func requestSurvivesRestart() throws {
        let folder = SnapshotEndToEndTests.StateFolder()
        let requestedAt: JSONValue?
        do {
            let herald = try folder.start(["--snapshot-interval", "3600"])
            _ = try herald.connect().call("request-focus", ["app": "org.example.chat", "requestAuthorization": true])
            let listed = try herald.connect().call("list-authorization-requests", ["uid": .number(JSONNumber(Int(getuid())))])
            requestedAt = listed[pointer: "/result/requests/0/requestedAt"]
            #expect(requestedAt != nil, "\(listed)")
            #expect(herald.stop(signal: SIGTERM) == 0)
        }
        let herald = try folder.start()
        let listed = try herald.connect().call("list-authorization-requests", ["uid": .number(JSONNumber(Int(getuid())))])
        #expect(listed[pointer: "/result/requests/0/app"]?.stringValue == "org.example.chat", "\(listed)")
        #expect(listed[pointer: "/result/requests/0/requestedAt"] == requestedAt, "\(listed)")
        _ = try herald.connect().call("set-focus-authorization", ["app": "org.example.chat", "status": "authorized"])
        let after = try herald.connect().call("list-authorization-requests", ["uid": .number(JSONNumber(Int(getuid())))])
        #expect(after[pointer: "/result/requests"]?.arrayValue?.isEmpty == true, "\(after)")
    }
}

/// Every change of a setting is a journal entry saying what changed: whose, which app, the
/// new authorization, which capabilities — never a person's handle.
@Suite("Setting changes in the journal, end to end", .enabled(if: JournalReader.isAvailable, "needs a running systemd-journald"))
struct AuthorizationJournalEndToEndTests {
    @Test("An authorization request, its answer and a capability change are entries with what changed")
    func settingEntries() throws {
        let herald = try HeraldProcess(arguments: ["--log-target", "journal"])
        let client = try herald.connect()
        let journal = JournalReader(pid: herald.process.pid)
        _ = try client.call("request-focus", ["app": "org.example.chat", "requestAuthorization": true], id: 1)
        _ = try client.call("set-focus-authorization", ["app": "org.example.chat", "uid": 1000, "status": "denied"], id: 2)
        _ = try client.call("set-focus-authorization", ["app": "org.example.chat", "status": "authorized"], id: 3)
        _ = try client.call("set-capabilities", ["app": "org.example.chat", "uid": 1000, "timeSensitive": false, "critical": true], id: 4)

        let asked = try #require(try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=request-focus"]).first)
        #expect(asked.field("HERALD_AUTHORIZATION_REQUEST") == "recorded" && asked.field("HERALD_SETTING_UID") == String(getuid()))
        let decisions = try journal.waitForEntries(count: 2, matching: ["HERALD_METHOD=set-focus-authorization"])
        let other = try #require(decisions.first { $0.field("HERALD_REQUEST_ID") == "2" })
        #expect(other.field("HERALD_SETTING_UID") == "1000" && other.field("HERALD_AUTHORIZATION") == "denied")
        #expect(other.field("HERALD_PREVIOUS_AUTHORIZATION") == "notDetermined" && other.field("HERALD_AUTHORIZATION_REQUEST") == nil)
        #expect(other.field("MESSAGE") == "set-focus-authorization ok app=org.example.chat uid=1000 authorization=denied")
        let answer = try #require(decisions.first { $0.field("HERALD_REQUEST_ID") == "3" })
        #expect(answer.field("HERALD_AUTHORIZATION") == "authorized" && answer.field("HERALD_AUTHORIZATION_REQUEST") == "answered")
        #expect(answer.field("MESSAGE_ID") == SetFocusAuthorizationMethod.journalMessageIDs.ok)
        let capabilities = try #require(try journal.waitForEntries(count: 1, matching: ["HERALD_METHOD=set-capabilities"]).first)
        #expect(capabilities.field("HERALD_CAPABILITIES_CHANGED") == "timeSensitive=false,critical=true")
        #expect(capabilities.field("HERALD_SETTING_UID") == "1000")
    }
}
