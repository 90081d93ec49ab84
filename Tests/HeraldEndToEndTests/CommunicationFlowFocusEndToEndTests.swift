import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 3, end to end: request-focus under each authorization policy, isFocused, and
/// focus-changed notifications to subscribed connections.
@Suite("Communication flow: request-focus and subscriptions, end to end")
struct CommunicationFlowFocusEndToEndTests {
    static let app = "org.example.chat"
    static let notDetermined = json(#"{"authorizationStatus":"notDetermined","focusStatus":null}"#)
    static let denied = json(#"{"authorizationStatus":"denied","focusStatus":null}"#)
    static let unfocused = json(#"{"authorizationStatus":"authorized","focusStatus":{"isFocused":false}}"#)
    static let focused = json(#"{"authorizationStatus":"authorized","focusStatus":{"isFocused":true}}"#)

    private func requestFocus(_ client: UnixSocketClient, ask: Bool? = nil, subscribe: Bool? = nil, app: String = app) throws -> JSONValue {
        var params: JSONObject = ["app": .string(app)]
        if let ask { params["requestAuthorization"] = .bool(ask) }
        if let subscribe { params["subscribe"] = .bool(subscribe) }
        return try client.result("request-focus", .object(params))
    }

    /// `focus-changed` as sent: authorized with a Focus status, or (nil) denied without one.
    private func focusChanged(_ isFocused: Bool?, app: String = app) -> JSONValue {
        let status = isFocused.map { #"{"isFocused":\#($0)}"# } ?? "null"
        let authorization = isFocused == nil ? "denied" : "authorized"
        return json(
            #"{"jsonrpc":"2.0","method":"focus-changed","params":{"app":"\#(app)","authorizationStatus":"\#(authorization)","focusStatus":\#(status)}}"#)
    }

    @Test("prompt (the default): notDetermined until an administrator decides")
    func promptPolicy() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        #expect(try requestFocus(client) == Self.notDetermined)
        #expect(try requestFocus(client, ask: true) == Self.notDetermined)
        try client.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(try requestFocus(client, ask: true) == Self.notDetermined)
        try client.result("set-focus-authorization", ["app": .string(Self.app), "status": "authorized"])
        #expect(try requestFocus(client) == Self.focused)
        try client.result("set-focus-authorization", ["app": .string(Self.app), "status": "restricted"])
        #expect(try requestFocus(client, ask: true) == json(#"{"authorizationStatus":"restricted","focusStatus":null}"#))
    }

    @Test("allow: authorized on asking, not before; isFocused follows the Focus and its allowed apps")
    func allowPolicy() throws {
        let herald = try HeraldProcess(arguments: ["--focus-authorization", "allow"])
        let client = try herald.connect()
        #expect(try requestFocus(client) == Self.notDetermined)
        #expect(try requestFocus(client, ask: true) == Self.unfocused)
        #expect(try requestFocus(client) == Self.unfocused)
        try client.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(try requestFocus(client) == Self.focused)
        // An app among the Focus's allowed apps is not focused.
        try client.result("set-focus", json(#"{"focus":{"name":"Work","allowedApps":["org.example.chat"]}}"#))
        #expect(try requestFocus(client) == Self.unfocused)
        #expect(try requestFocus(client, ask: true, app: "org.example.mail") == Self.focused)
        try client.result("set-focus", ["focus": .null])
        #expect(try requestFocus(client, app: "org.example.mail") == Self.unfocused)
        // An administrator may still deny it; asking again changes nothing.
        try client.result("set-focus-authorization", ["app": .string(Self.app), "status": "denied"])
        #expect(try requestFocus(client, ask: true) == Self.denied)
    }

    @Test("deny: denied on asking, and asking again keeps it denied")
    func denyPolicy() throws {
        let herald = try HeraldProcess(arguments: ["--focus-authorization", "deny"])
        let client = try herald.connect()
        #expect(try requestFocus(client) == Self.notDetermined)
        try client.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(try requestFocus(client, ask: true) == Self.denied)
        #expect(try requestFocus(client, ask: true) == Self.denied)
        try client.result("set-focus-authorization", ["app": .string(Self.app), "status": "authorized"])
        #expect(try requestFocus(client, ask: true) == Self.focused)
    }

    @Test("A subscribed connection receives focus-changed when isFocused changes, and none when it does not")
    func subscription() throws {
        let herald = try HeraldProcess(arguments: ["--focus-authorization", "allow"])
        let subscriber = try herald.connect()
        let admin = try herald.connect()
        #expect(try requestFocus(subscriber, ask: true, subscribe: true) == Self.unfocused)

        try admin.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(try subscriber.readJSON() == focusChanged(true))
        // Another Focus: still focused, so no notification; an allowed-app Focus: unfocused.
        try admin.result("set-focus", json(#"{"focus":{"name":"Sleep","allowTimeSensitive":false}}"#))
        try admin.result("set-focus", json(#"{"focus":{"name":"Work","allowedApps":["org.example.chat"]}}"#))
        #expect(try subscriber.readJSON() == focusChanged(false))
        // Off from an allowed-app Focus: still unfocused, nothing; on again without the app
        // (set-focus keeps what it does not name, so the list is emptied explicitly): focused.
        try admin.result("set-focus", ["focus": .null])
        try admin.result("set-focus", json(#"{"focus":{"name":"Work","allowedApps":[]}}"#))
        #expect(try subscriber.readJSON() == focusChanged(true))
        try admin.result("set-focus", ["focus": .null])
        #expect(try subscriber.readJSON() == focusChanged(false))
        // The subscriber's own requests are still answered in order, with no stray line.
        #expect(
            try subscriber.call("request-focus", ["app": .string(Self.app)], id: 9)
                == json(#"{"jsonrpc":"2.0","id":9,"result":\#(Self.unfocused.compactText)}"#))
        // No longer authorized: focusStatus null.
        try admin.result("set-focus-authorization", ["app": .string(Self.app), "status": "denied"])
        #expect(try subscriber.readJSON() == focusChanged(nil))
        // The connection that changed the Focus did not subscribe: its next line is its own response.
        #expect(try admin.call("request-focus", ["app": "org.example.other"], id: 3)[pointer: "/id"] == 3)
    }

    @Test("A subscription made while notDetermined starts once authorized; other apps are told apart")
    func subscriptionBeforeAuthorization() throws {
        let herald = try HeraldProcess()
        let subscriber = try herald.connect()
        let admin = try herald.connect()
        #expect(try requestFocus(subscriber, ask: true, subscribe: true) == Self.notDetermined)
        #expect(try requestFocus(subscriber, subscribe: true, app: "org.example.mail") == Self.notDetermined)
        try admin.result("set-focus", json(#"{"focus":{"name":"Work","allowedApps":["org.example.mail"]}}"#))
        try admin.result("set-focus-authorization", ["app": .string(Self.app), "status": "authorized"])
        #expect(try subscriber.readJSON() == focusChanged(true))
        try admin.result("set-focus-authorization", ["app": "org.example.mail", "status": "authorized"])
        #expect(try subscriber.readJSON() == focusChanged(false, app: "org.example.mail"))
        try admin.result("set-focus", ["focus": .null])
        #expect(try subscriber.readJSON() == focusChanged(false))
    }

    @Test("Another uid's authorization change sends nothing to this uid's subscription")
    func subscriptionIsPerUid() throws {
        let herald = try HeraldProcess()
        let subscriber = try herald.connect()
        let admin = try herald.connect()
        try admin.result("set-focus-authorization", ["app": .string(Self.app), "status": "authorized"])
        #expect(try requestFocus(subscriber, subscribe: true) == Self.unfocused)
        try admin.result("set-focus-authorization", ["app": .string(Self.app), "uid": 65534, "status": "authorized"])
        try admin.result("set-focus-authorization", ["app": "org.example.mail", "status": "authorized"])
        try admin.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(try subscriber.readJSON() == focusChanged(true))
        // Subscribing again replaces the subscription: still one notification per change.
        #expect(try requestFocus(subscriber, subscribe: true) == Self.focused)
        try admin.result("set-focus", ["focus": .null])
        #expect(try subscriber.readJSON() == focusChanged(false))
        #expect(try subscriber.call("request-focus", ["app": .string(Self.app)], id: 5)[pointer: "/id"] == 5)
    }

    @Test("A Focus with until ends by itself and subscribers hear of it")
    func focusUntil() throws {
        let herald = try HeraldProcess(arguments: ["--focus-authorization", "allow"])
        let subscriber = try herald.connect()
        let admin = try herald.connect()
        #expect(try requestFocus(subscriber, ask: true, subscribe: true) == Self.unfocused)
        let formatter = ISO8601DateFormatter()
        let until = formatter.string(from: Date().addingTimeInterval(3))
        try admin.result("set-focus", json(#"{"focus":{"name":"Meeting","until":"\#(until)"}}"#))
        #expect(try subscriber.readJSON() == focusChanged(true))
        #expect(try subscriber.readJSON(timeout: 10) == focusChanged(false))
        #expect(try requestFocus(admin, ask: true) == Self.unfocused)
    }
}
