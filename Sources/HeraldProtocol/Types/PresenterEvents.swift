import Foundation

/// What a presenter (`subscribe-notifications`) is told, each the params of one JSON-RPC
/// notification: `notification-delivered`, `summary-delivered`, `notifications-removed`.

/// `notification-delivered`: an alert or a quiet notification, as it is decided.
public struct NotificationDelivered: Codable, Sendable, Hashable {
    public static let method = "notification-delivered"
    public var uid: UInt32
    public var notification: HeraldNotification

    public init(uid: UInt32, notification: HeraldNotification) {
        self.uid = uid
        self.notification = notification
    }
}

/// `summary-delivered`: one uid's scheduled summary, ranked.
public struct NotificationSummary: Codable, Sendable, Hashable {
    public static let method = "summary-delivered"
    public var uid: UInt32
    public var deliveredAt: Date
    /// Ranked: relevanceScore highest first, then with attachments or an avatar, then
    /// communications, then newest first.
    public var notifications: [HeraldNotification]

    public init(uid: UInt32, deliveredAt: Date, notifications: [HeraldNotification]) {
        self.uid = uid
        self.deliveredAt = deliveredAt
        self.notifications = notifications
    }
}

/// `notifications-removed`: notifications of one (uid, app) removed by `remove-notifications`.
public struct NotificationsRemoved: Codable, Sendable, Hashable {
    public static let method = "notifications-removed"
    public var uid: UInt32
    public var app: String
    public var identifiers: [String]

    public init(uid: UInt32, app: String, identifiers: [String]) {
        self.uid = uid
        self.app = app
        self.identifiers = identifiers
    }
}
