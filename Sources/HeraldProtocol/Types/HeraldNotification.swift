import FoundationEssentials

/// A notification in a uid's notification list: what `update-content` decided, kept until
/// it is removed, evicted by `--max-notifications` or forgotten by `--retention`.
///
/// "All notifications delivered to the summary on a schedule are present in the
/// notification list"; Apple's `UNNotification` (delivered) and `UNNotificationRequest`
/// (pending) are its two states.
package struct HeraldNotification: Codable, Sendable, Hashable {
    /// Unique within (uid, app): the same identifier again replaces this notification.
    package var identifier: String
    package var app: String
    /// The content as `update-content` returned it.
    package var content: NotificationContent
    package var delivery: Delivery
    package var state: NotificationState
    /// When `update-content` put it in the list.
    package var receivedAt: Date
    /// When it was delivered; absent while it is scheduled. A snoozed notification keeps
    /// its first delivery's time until it comes back.
    package var deliveredAt: Date?
    /// While it is snoozed: when it comes back (`snooze-notification`).
    package var snoozedUntil: Date?
    /// What a presenter draws, filled in as the notification is presented (never stored):
    /// the actions of the category its `categoryIdentifier` names among its (uid, app)'s
    /// categories; absent when it names none, or one the app did not set.
    package var actions: [NotificationAction]?
    /// That category's options, when it has any — `customDismissAction` says that a
    /// dismissal is answered with `respond-to-notification` `dismiss`.
    package var categoryOptions: [NotificationCategoryOption]?

    package init(
        identifier: String,
        app: String,
        content: NotificationContent,
        delivery: Delivery,
        state: NotificationState,
        receivedAt: Date,
        deliveredAt: Date? = nil,
        snoozedUntil: Date? = nil
    ) {
        self.identifier = identifier
        self.app = app
        self.content = content
        self.delivery = delivery
        self.state = state
        self.receivedAt = receivedAt
        self.deliveredAt = deliveredAt
        self.snoozedUntil = snoozedUntil
    }
}

/// Where a notification stands: `delivered` at once for an alert or a quiet one;
/// `scheduled` while it waits for its summary; `snoozed` while the person put it off,
/// until `snoozedUntil`.
package enum NotificationState: String, JSONEnum, Hashable {
    case delivered
    case scheduled
    case snoozed
}

/// Written directly: presenters get one with every alert, and `list-notifications` up to
/// thousands (see `JSONDirectEncodable`).
extension HeraldNotification: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("identifier", identifier)
        members.add("app", app)
        members.add("content", content)
        members.add("delivery", delivery)
        members.add("state", state)
        members.add("receivedAt", receivedAt)
        members.add("deliveredAt", deliveredAt)
        members.add("snoozedUntil", snoozedUntil)
        members.add("actions", actions)
        members.add("categoryOptions", categoryOptions)
    }
}
