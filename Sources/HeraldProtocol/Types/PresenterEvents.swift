import FoundationEssentials

/// What a presenter (`subscribe-notifications`) is told, each the params of one JSON-RPC
/// notification: `notification-delivered`, `summary-delivered`, `notifications-removed`,
/// `authorization-requested` and `authorization-answered`.

/// `notification-delivered`: an alert or a quiet notification, as it is decided.
package struct NotificationDelivered: Codable, Sendable, Hashable {
    package static let method = "notification-delivered"
    package var uid: UInt32
    package var notification: HeraldNotification

    package init(uid: UInt32, notification: HeraldNotification) {
        self.uid = uid
        self.notification = notification
    }
}

/// `summary-delivered`: one uid's scheduled summary, ranked.
package struct NotificationSummary: Codable, Sendable, Hashable {
    package static let method = "summary-delivered"
    package var uid: UInt32
    package var deliveredAt: Date
    /// `alert`, or `quiet` (no sound, no banner) when it is delivered while a Focus is on:
    /// the summary decides when notifications arrive, the Focus how they are presented.
    package var presentation: Presentation
    /// The Focus on when it was delivered; absent when none was.
    package var focus: String?
    /// Ranked: relevanceScore highest first, then with attachments or an avatar, then
    /// communications, then newest first.
    package var notifications: [HeraldNotification]

    package init(uid: UInt32, deliveredAt: Date, presentation: Presentation = .alert, focus: String? = nil, notifications: [HeraldNotification]) {
        self.uid = uid
        self.deliveredAt = deliveredAt
        self.presentation = presentation
        self.focus = focus
        self.notifications = notifications
    }
}

/// `events-skipped`: a burst (snoozes ending together, an undo, a summary) brought this
/// presenter more events than it took in time, past `--max-unread-bytes`: `skipped` of them
/// were not sent. What they told is in `list-notifications` and `list-authorization-requests`.
package struct EventsSkipped: Codable, Sendable, Hashable {
    package static let method = "events-skipped"
    package var skipped: Int
    /// Of them, the notifications and summaries delivered as alerts: what the person would
    /// have seen as they came (silenced and quiet ones, removals and prompts are not).
    package var alerts: Int

    package init(skipped: Int, alerts: Int) {
        self.skipped = skipped
        self.alerts = alerts
    }
}

/// `notifications-removed`: notifications of one (uid, app) removed by `remove-notifications`.
package struct NotificationsRemoved: Codable, Sendable, Hashable {
    package static let method = "notifications-removed"
    package var uid: UInt32
    package var app: String
    package var identifiers: [String]

    package init(uid: UInt32, app: String, identifiers: [String]) {
        self.uid = uid
        self.app = app
        self.identifiers = identifiers
    }
}

/// `authorization-requested`: an app of `uid` asked to share its Focus status, under the
/// `prompt` policy; the desktop asks the person, whose answer is their own
/// `set-focus-authorization`. Sent once per request; also an element of
/// `list-authorization-requests`.
package struct AuthorizationRequested: Codable, Sendable, Hashable {
    package static let method = "authorization-requested"
    package var uid: UInt32
    package var app: String
    package var requestedAt: Date

    package init(uid: UInt32, app: String, requestedAt: Date) {
        self.uid = uid
        self.app = app
        self.requestedAt = requestedAt
    }
}

/// `authorization-answered`: the waiting request of (uid, app) was decided (by the person,
/// an administrator, or the policy), so every desktop can drop its prompt.
package struct AuthorizationAnswered: Codable, Sendable, Hashable {
    package static let method = "authorization-answered"
    package var uid: UInt32
    package var app: String
    package var authorizationStatus: AuthorizationStatus
    package var requestedAt: Date
    package var answeredAt: Date

    package init(uid: UInt32, app: String, authorizationStatus: AuthorizationStatus, requestedAt: Date, answeredAt: Date) {
        self.uid = uid
        self.app = app
        self.authorizationStatus = authorizationStatus
        self.requestedAt = requestedAt
        self.answeredAt = answeredAt
    }
}

extension NotificationDelivered: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("uid", uid)
        members.add("notification", notification)
    }
}

extension NotificationSummary: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("uid", uid)
        members.add("deliveredAt", deliveredAt)
        members.add("presentation", presentation)
        members.add("focus", focus)
        members.add("notifications", notifications)
    }
}
