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

    static func line(_ method: String, _ params: [String: Any]) -> String {
        let object: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
