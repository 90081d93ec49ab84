/// A type of notification an app posts, and the actions a person can take on it —
/// `UNNotificationCategory(identifier:actions:intentIdentifiers:options:)`.
///
/// A notification names its category with `categoryIdentifier` (APNs `category`); a
/// presenter draws the category's actions as buttons and answers with
/// `respond-to-notification`.
package struct NotificationCategory: Codable, Sendable, Hashable {
    /// Unique within the (uid, app)'s set.
    package var identifier: String
    /// In the order a presenter shows them; at most 10, identifiers unique.
    package var actions: [NotificationAction]
    package var options: [NotificationCategoryOption]?
    /// The body shown instead of the real one while previews are hidden.
    package var hiddenPreviewsBodyPlaceholder: String?

    package init(
        identifier: String, actions: [NotificationAction], options: [NotificationCategoryOption]? = nil,
        hiddenPreviewsBodyPlaceholder: String? = nil
    ) {
        self.identifier = identifier
        self.actions = actions
        self.options = options
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
    }

    /// Whether dismissing a notification of this category is answered as `dismiss`.
    package var customDismissAction: Bool { options?.contains(.customDismissAction) == true }
}

/// `UNNotificationCategoryOptions`.
package enum NotificationCategoryOption: String, JSONEnum, Hashable {
    /// A dismissal is a response (`dismiss`), told to the app.
    case customDismissAction
    case allowAnnouncement
    case hiddenPreviewsShowTitle
    case hiddenPreviewsShowSubtitle
}

/// One button on a notification — `UNNotificationAction`, or with `textInput`
/// `UNTextInputNotificationAction`.
package struct NotificationAction: Codable, Sendable, Hashable {
    /// Unique within its category; `default` and `dismiss` are reserved.
    package var identifier: String
    package var title: String
    package var options: [NotificationActionOption]?
    package var icon: NotificationActionIcon?
    /// Present for a text-input action: its response carries `userText`.
    package var textInput: NotificationTextInput?

    package init(
        identifier: String, title: String, options: [NotificationActionOption]? = nil, icon: NotificationActionIcon? = nil,
        textInput: NotificationTextInput? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
        self.textInput = textInput
    }

    /// The action identifier of opening the notification itself (`UNNotificationDefaultActionIdentifier`).
    package static let defaultIdentifier = "default"
    /// The action identifier of dismissing it, for a category with `customDismissAction`
    /// (`UNNotificationDismissActionIdentifier`).
    package static let dismissIdentifier = "dismiss"
}

/// `UNNotificationActionOptions`.
package enum NotificationActionOption: String, JSONEnum, Hashable {
    case foreground
    case destructive
    case authenticationRequired
}

/// `UNNotificationActionIcon`: exactly one of a system image's name and a template image's name.
package struct NotificationActionIcon: Codable, Sendable, Hashable {
    package var systemImageName: String?
    package var templateImageName: String?

    package init(systemImageName: String? = nil, templateImageName: String? = nil) {
        self.systemImageName = systemImageName
        self.templateImageName = templateImageName
    }
}

/// A text-input action's button and placeholder (`textInputButtonTitle`, `textInputPlaceholder`).
package struct NotificationTextInput: Codable, Sendable, Hashable {
    package var buttonTitle: String
    package var placeholder: String

    package init(buttonTitle: String, placeholder: String) {
        self.buttonTitle = buttonTitle
        self.placeholder = placeholder
    }
}

extension NotificationCategory: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            NotificationCategory(
                identifier: try members.required("identifier"),
                actions: try members.required("actions"),
                options: try members.optional("options"),
                hiddenPreviewsBodyPlaceholder: try members.optional("hiddenPreviewsBodyPlaceholder")
            )
        }
    }
}

extension NotificationAction: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            NotificationAction(
                identifier: try members.required("identifier"),
                title: try members.required("title"),
                options: try members.optional("options"),
                icon: try members.optional("icon"),
                textInput: try members.optional("textInput")
            )
        }
    }
}

extension NotificationActionIcon: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            NotificationActionIcon(
                systemImageName: try members.optional("systemImageName"),
                templateImageName: try members.optional("templateImageName")
            )
        }
    }
}

extension NotificationTextInput: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            NotificationTextInput(buttonTitle: try members.required("buttonTitle"), placeholder: try members.required("placeholder"))
        }
    }
}

extension NotificationAction: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("identifier", identifier)
        members.add("title", title)
        members.add("options", options)
        members.add("icon", icon)
        members.add("textInput", textInput)
    }
}

extension NotificationActionIcon: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("systemImageName", systemImageName)
        members.add("templateImageName", templateImageName)
    }
}

extension NotificationTextInput: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("buttonTitle", buttonTitle)
        members.add("placeholder", placeholder)
    }
}
