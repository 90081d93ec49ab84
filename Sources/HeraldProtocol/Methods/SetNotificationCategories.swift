/// `set-notification-categories`: replaces the caller's (uid, app)'s set of notification
/// categories — Apple's `setNotificationCategories(_:)`. An empty list clears it.
package enum SetNotificationCategoriesMethod: HeraldMethod {
    package static let name = "set-notification-categories"
    package static let access: MethodAccess = .app
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "e35154872d1d46b7825512f3861ed953", error: "9d589c4fe4db43c693538032e77799b7")
    package typealias Params = SetNotificationCategoriesParams
    package typealias Result = NotificationCategoriesResult
}

package struct SetNotificationCategoriesParams: Codable, Sendable, Hashable {
    package var app: String
    /// At most 100, identifiers unique.
    package var categories: [NotificationCategory]

    package init(app: String, categories: [NotificationCategory]) {
        self.app = app
        self.categories = categories
    }
}

extension SetNotificationCategoriesParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetNotificationCategoriesParams(app: try members.required("app"), categories: try members.required("categories"))
        }
    }
}

/// The (uid, app)'s set of categories, as `set-notification-categories` left it and
/// `get-notification-categories` reads it.
package struct NotificationCategoriesResult: Codable, Sendable, Hashable {
    package var app: String
    /// In the order they were set.
    package var categories: [NotificationCategory]

    package init(app: String, categories: [NotificationCategory]) {
        self.app = app
        self.categories = categories
    }
}
