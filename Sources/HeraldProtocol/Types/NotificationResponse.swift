import FoundationEssentials

/// `notification-response`: a person acted on one of the app's notifications — Apple's
/// `UNNotificationResponse`. Sent to the app's connections that called
/// `subscribe-responses`; only the notification's own uid hears it.
package struct NotificationResponse: Codable, Sendable, Hashable {
    package static let method = "notification-response"
    package var app: String
    /// The notification's identifier.
    package var identifier: String
    /// One of the category's actions, `default` or `dismiss`.
    package var actionIdentifier: String
    /// For a text-input action: what the person typed.
    package var userText: String?
    /// The notification as it was when the person acted, with its actions.
    package var notification: HeraldNotification
    /// When the person acted; a response that waited for the app is older than its delivery.
    package var respondedAt: Date

    package init(app: String, identifier: String, actionIdentifier: String, userText: String?, notification: HeraldNotification, respondedAt: Date) {
        self.app = app
        self.identifier = identifier
        self.actionIdentifier = actionIdentifier
        self.userText = userText
        self.notification = notification
        self.respondedAt = respondedAt
    }
}

/// Written directly, as the notification it carries is (see `JSONDirectEncodable`).
extension NotificationResponse: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("app", app)
        members.add("identifier", identifier)
        members.add("actionIdentifier", actionIdentifier)
        members.add("userText", userText)
        members.add("notification", notification)
        members.add("respondedAt", respondedAt)
    }
}
