/// `respond-to-notification`: what a presenter calls when a person acts on a notification
/// — the `UNNotificationResponse` the app is handed. The notification leaves the list
/// (presenters are told `notifications-removed`), and the app hears `notification-response`
/// on a connection that called `subscribe-responses`, now or when it next subscribes.
package enum RespondToNotificationMethod: HeraldMethod {
    package static let name = "respond-to-notification"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "0abae7cdd73f4937acc30c3a080d9709", error: "1759723f517d4929b06abf6d9f1b34b0")
    package typealias Params = RespondToNotificationParams
    package typealias Result = RespondToNotificationResult
}

package struct RespondToNotificationParams: Codable, Sendable, Hashable {
    package var app: String
    /// The notification's identifier.
    package var identifier: String
    /// One of its category's actions, `default` (the notification was opened) or
    /// `dismiss` (dismissed, for a category with `customDismissAction`).
    package var actionIdentifier: String
    /// What the person typed: required for a text-input action, refused for any other.
    package var userText: String?
    /// Administrators only: the notification of another uid.
    package var uid: UInt32?

    package init(app: String, identifier: String, actionIdentifier: String, userText: String? = nil, uid: UInt32? = nil) {
        self.app = app
        self.identifier = identifier
        self.actionIdentifier = actionIdentifier
        self.userText = userText
        self.uid = uid
    }
}

extension RespondToNotificationParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            RespondToNotificationParams(
                app: try members.required("app"),
                identifier: try members.required("identifier"),
                actionIdentifier: try members.required("actionIdentifier"),
                userText: try members.optional("userText"),
                uid: try members.optional("uid")
            )
        }
    }
}

package struct RespondToNotificationResult: Codable, Sendable, Hashable {
    package var app: String
    package var identifier: String
    package var actionIdentifier: String
    /// `delivered`: a connection of the app is subscribed and was told; `pending`: the
    /// response waits for the app's next `subscribe-responses`.
    package var response: ResponseHandoff

    package init(app: String, identifier: String, actionIdentifier: String, response: ResponseHandoff) {
        self.app = app
        self.identifier = identifier
        self.actionIdentifier = actionIdentifier
        self.response = response
    }
}

/// Where a response went: to a subscribed connection of its app, or to wait for one.
package enum ResponseHandoff: String, JSONEnum, Hashable {
    case delivered
    case pending
}
