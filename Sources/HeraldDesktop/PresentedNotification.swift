import Foundation
import HeraldProtocol

/// A notification in heraldd's notification list, as a presenter receives it:
/// `{identifier, app, content, delivery, state, receivedAt, deliveredAt?}` (the
/// notification list's entry), where `content` and `delivery` are what `update-content` returns.
public struct PresentedNotification: Codable, Sendable, Hashable {
    public var identifier: String
    public var app: String
    public var content: NotificationContent
    public var delivery: Delivery
    /// `delivered` or `scheduled`.
    public var state: String
    public var receivedAt: Date
    public var deliveredAt: Date?
    /// The actions of the notification's category, when its category names one of its
    /// (uid, app) — carried by heraldd once categories exist; absent until then.
    public var actions: [PresentedAction]?

    public init(
        identifier: String,
        app: String,
        content: NotificationContent,
        delivery: Delivery,
        state: String = "delivered",
        receivedAt: Date,
        deliveredAt: Date? = nil,
        actions: [PresentedAction]? = nil
    ) {
        self.identifier = identifier
        self.app = app
        self.content = content
        self.delivery = delivery
        self.state = state
        self.receivedAt = receivedAt
        self.deliveredAt = deliveredAt
        self.actions = actions
    }

    /// The (app, identifier) that names the notification within its uid.
    public var key: NotificationKey { NotificationKey(app: app, identifier: identifier) }
}

/// One action a person can take on a notification (`UNNotificationAction`): what the
/// presenter draws as a button and answers with `respond-to-notification`.
public struct PresentedAction: Codable, Sendable, Hashable {
    public var identifier: String
    public var title: String
    public var options: [String]?
    /// `{systemImageName}` or `{templateImageName}`: drawn as a named icon where the server can.
    public var icon: Icon?
    /// A text-input action; the Desktop Notifications specification has no text input.
    public var textInput: JSONValue?

    public struct Icon: Codable, Sendable, Hashable {
        public var systemImageName: String?
        public var templateImageName: String?

        public init(systemImageName: String? = nil, templateImageName: String? = nil) {
            self.systemImageName = systemImageName
            self.templateImageName = templateImageName
        }

        public var name: String? { systemImageName ?? templateImageName }
    }

    public init(identifier: String, title: String, options: [String]? = nil, icon: Icon? = nil, textInput: JSONValue? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
        self.textInput = textInput
    }
}

/// A notification's name within its uid: the same (app, identifier) again replaces it.
public struct NotificationKey: Sendable, Hashable, CustomStringConvertible {
    public var app: String
    public var identifier: String

    public init(app: String, identifier: String) {
        self.app = app
        self.identifier = identifier
    }

    public var description: String { "\(app)/\(identifier)" }
}
