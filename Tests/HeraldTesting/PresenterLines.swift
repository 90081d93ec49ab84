import Foundation

/// Presenter lines as issue 12 ("The notification list and the scheduled summary")
/// defines them, written with JSONSerialization: `notification-delivered`,
/// `summary-delivered`, `notifications-removed`.
package enum PresenterLines {
    /// A notification of the list: `{identifier, app, content, delivery, state, receivedAt, deliveredAt?}`.
    package static func notification(
        identifier: String,
        app: String = "org.example.chat",
        content: [String: Any],
        presentation: String = "alert",
        sound: Bool = true,
        actions: [[String: Any]]? = nil
    ) -> [String: Any] {
        let now = "2026-11-23T10:00:00Z"
        var notification: [String: Any] = [
            "identifier": identifier,
            "app": app,
            "content": content,
            "delivery": [
                "presentation": presentation, "sound": sound, "lightsScreen": presentation == "alert",
                "breaksThroughFocus": false, "breaksThroughSummary": false, "bypassesRinger": false, "announce": false,
                "reasons": [["code": "delivered", "message": "Delivered."]],
            ] as [String: Any],
            "state": presentation == "summary" ? "scheduled" : "delivered",
            "receivedAt": now,
        ]
        if presentation != "summary" { notification["deliveredAt"] = now }
        if let actions { notification["actions"] = actions }
        return notification
    }

    package static func delivered(uid: UInt32 = getuid(), _ notification: [String: Any]) -> String {
        line("notification-delivered", ["uid": uid, "notification": notification])
    }

    package static func summary(uid: UInt32 = getuid(), _ notifications: [[String: Any]]) -> String {
        line("summary-delivered", ["uid": uid, "deliveredAt": "2026-11-23T18:00:00Z", "notifications": notifications])
    }

    package static func removed(uid: UInt32 = getuid(), app: String = "org.example.chat", _ identifiers: [String]) -> String {
        line("notifications-removed", ["uid": uid, "app": app, "identifiers": identifiers])
    }

    package static func authorizationRequested(uid: UInt32 = getuid(), app: String) -> String {
        line("authorization-requested", authorizationRequest(uid: uid, app: app))
    }

    package static func authorizationAnswered(uid: UInt32 = getuid(), app: String, status: String = "denied") -> String {
        var params = authorizationRequest(uid: uid, app: app)
        params["authorizationStatus"] = status
        params["answeredAt"] = "2026-11-23T13:50:00Z"
        return line("authorization-answered", params)
    }

    /// `{uid, app, requestedAt}`: an `authorization-requested`'s params, and an element of
    /// `list-authorization-requests`' result.
    package static func authorizationRequest(uid: UInt32 = getuid(), app: String) -> [String: Any] {
        ["uid": uid, "app": app, "requestedAt": "2026-11-23T13:49:05Z"]
    }

    /// `list-authorization-requests`' `requests` for `apps`, as a JSON array.
    package static func waitingRequests(uid: UInt32 = getuid(), _ apps: [String]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: apps.map { authorizationRequest(uid: uid, app: $0) }, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func line(_ method: String, _ params: [String: Any]) -> String {
        let object: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
