/// `get-notification-categories`: the caller's (uid, app)'s set of notification categories
/// — Apple's `getNotificationCategories`. Empty when the app set none.
package enum GetNotificationCategoriesMethod: HeraldMethod {
    package static let name = "get-notification-categories"
    package static let needsStore = false
    package static let access: MethodAccess = .app
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "b137ff2c817245c58a29490218348947", error: "efe6e1b9716845aa8578129880f1ccb6")
    package typealias Params = GetNotificationCategoriesParams
    package typealias Result = NotificationCategoriesResult
}

package struct GetNotificationCategoriesParams: Codable, Sendable, Hashable {
    package var app: String

    package init(app: String) {
        self.app = app
    }
}

extension GetNotificationCategoriesParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            GetNotificationCategoriesParams(app: try members.required("app"))
        }
    }
}
