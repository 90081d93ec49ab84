import HeraldProtocol

/// The rules of a set of notification categories (`set-notification-categories`): what
/// `UNNotificationCategory` and `UNNotificationAction` allow, with Herald's bounds.
enum CategoryRules {
    /// Categories in one (uid, app)'s set.
    static let maxCategories = 100
    /// Actions in one category.
    static let maxActions = 10
    /// Categories of one uid, every app's together: a uid is a tenant, its share bounded
    /// whatever the number of its apps.
    static let maxCategoriesPerUID = 1_000
    /// Characters in an identifier (category or action) and an icon's name.
    static let maxIdentifierCharacters = 255
    /// Action identifiers that mean the notification itself: opened, dismissed.
    static let reservedActionIdentifiers: Set<String> = [NotificationAction.defaultIdentifier, NotificationAction.dismissIdentifier]

    /// Throws invalid params at the first member at fault in `categories`.
    static func validate(_ categories: [NotificationCategory]) throws(RuleError) {
        guard categories.count <= maxCategories else {
            throw RuleError(
                .invalidParams, "An app has at most \(maxCategories) notification categories; got \(categories.count).",
                at: ["categories"], limit: maxCategories
            )
        }
        var seen: [String: Int] = [:]
        for (index, category) in categories.enumerated() {
            let path: MemberPath = ["categories", .index(index)]
            try identifier(category.identifier, what: "A category identifier", at: path.appending("identifier"))
            if let first = seen.updateValue(index, forKey: category.identifier) {
                throw .invalidParams(
                    "Category \(category.identifier) comes twice, at /categories/\(first) and here; category identifiers are unique.",
                    at: path.appending("identifier")
                )
            }
            try validate(category, at: path)
        }
    }

    private static func validate(_ category: NotificationCategory, at path: MemberPath) throws(RuleError) {
        try unique(category.options, at: path.appending("options"))
        guard category.actions.count <= maxActions else {
            throw RuleError(
                .invalidParams, "A category has at most \(maxActions) actions; got \(category.actions.count).",
                at: path.appending("actions"), limit: maxActions
            )
        }
        var seen: [String: Int] = [:]
        for (index, action) in category.actions.enumerated() {
            let actionPath = path.appending("actions").appending(index)
            let identifierPath = actionPath.appending("identifier")
            try identifier(action.identifier, what: "An action identifier", at: identifierPath)
            if reservedActionIdentifiers.contains(action.identifier) {
                throw .invalidParams(
                    "The action identifier \(action.identifier) is reserved: default answers opening the notification, dismiss dismissing it (with customDismissAction).",
                    at: identifierPath
                )
            }
            if let first = seen.updateValue(index, forKey: action.identifier) {
                throw .invalidParams(
                    "Action \(action.identifier) comes twice in this category, at actions/\(first) and here; action identifiers are unique in a category.",
                    at: identifierPath
                )
            }
            guard !action.title.isEmpty else {
                throw .invalidParams("An action's title is what its button says: not empty.", at: actionPath.appending("title"))
            }
            try unique(action.options, at: actionPath.appending("options"))
            if let icon = action.icon {
                try validate(icon, at: actionPath.appending("icon"))
            }
            if let textInput = action.textInput, textInput.buttonTitle.isEmpty {
                throw .invalidParams(
                    "A text-input action's buttonTitle is what its send button says: not empty.",
                    at: actionPath.appending("textInput").appending("buttonTitle")
                )
            }
        }
    }

    private static func validate(_ icon: NotificationActionIcon, at path: MemberPath) throws(RuleError) {
        switch (icon.systemImageName, icon.templateImageName) {
        case (let name?, nil):
            try identifier(name, what: "An icon's systemImageName", at: path.appending("systemImageName"))
        case (nil, let name?):
            try identifier(name, what: "An icon's templateImageName", at: path.appending("templateImageName"))
        case (nil, nil):
            throw .invalidParams("An icon is {\"systemImageName\": …} or {\"templateImageName\": …}.", at: path)
        case (_?, _?):
            throw .invalidParams("An icon has one name: systemImageName or templateImageName, not both.", at: path.appending("templateImageName"))
        }
    }

    private static func identifier(_ text: String, what: String, at path: MemberPath) throws(RuleError) {
        guard !text.isEmpty, text.utf8.count <= maxIdentifierCharacters || text.count <= maxIdentifierCharacters else {
            throw .invalidParams("\(what) is 1–\(maxIdentifierCharacters) characters; got \(text.count).", at: path)
        }
    }

    private static func unique<Option: Hashable & RawRepresentable<String>>(_ options: [Option]?, at path: MemberPath) throws(RuleError) {
        var seen: Set<Option> = []
        for (index, option) in (options ?? []).enumerated() where !seen.insert(option).inserted {
            throw .invalidParams("The option \(option.rawValue) comes twice.", at: path.appending(index))
        }
    }
}
