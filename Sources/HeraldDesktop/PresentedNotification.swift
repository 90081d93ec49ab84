import Foundation
import HeraldProtocol

/// A notification in heraldd's notification list, as a presenter receives it:
/// `{identifier, app, content, delivery, state, receivedAt, deliveredAt?}` (the
/// notification list's entry), where `content` and `delivery` are what `update-content` returns.
package struct PresentedNotification: Sendable, Hashable {
    package var identifier: String
    package var app: String
    package var content: NotificationContent
    package var delivery: Delivery
    /// `delivered` or `scheduled`.
    package var state: String
    package var receivedAt: Date
    package var deliveredAt: Date?
    /// The actions of the notification's category, when its category names one of its
    /// (uid, app) — carried by heraldd once categories exist; absent until then.
    package var actions: [PresentedAction]?
    /// The options of that category (`customDismissAction`, …), when it has any: heraldd
    /// adds them beside `actions`, so that a presenter knows to answer a dismissal.
    package var categoryOptions: [String]?

    /// Whether a person's dismissal is a response (`dismiss`): the category asked for it.
    package var answersDismissal: Bool { categoryOptions?.contains("customDismissAction") == true }

    package init(
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
    package var key: NotificationKey { NotificationKey(app: app, identifier: identifier) }
}

/// One action a person can take on a notification (`UNNotificationAction`): what the
/// presenter draws as a button and answers with `respond-to-notification`.
package struct PresentedAction: Sendable, Hashable {
    package var identifier: String
    package var title: String
    package var options: [String]?
    /// `{systemImageName}` or `{templateImageName}`: drawn as a named icon where the server can.
    package var icon: Icon?
    /// A text-input action; the Desktop Notifications specification has no text input.
    package var textInput: JSONValue?

    package struct Icon: Sendable, Hashable {
        package var systemImageName: String?
        package var templateImageName: String?

        package init(systemImageName: String? = nil, templateImageName: String? = nil) {
            self.systemImageName = systemImageName
            self.templateImageName = templateImageName
        }

        package var name: String? { systemImageName ?? templateImageName }
    }

    package init(identifier: String, title: String, options: [String]? = nil, icon: Icon? = nil, textInput: JSONValue? = nil) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
        self.textInput = textInput
    }
}

/// A notification's name within its uid: the same (app, identifier) again replaces it.
package struct NotificationKey: Sendable, Hashable, CustomStringConvertible {
    package var app: String
    package var identifier: String

    package init(app: String, identifier: String) {
        self.app = app
        self.identifier = identifier
    }

    package var description: String { "\(app)/\(identifier)" }
}
