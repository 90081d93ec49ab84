/// `remove-notifications`: removes notifications from the caller's list, delivered and
/// scheduled alike — Apple's `removeDeliveredNotifications(withIdentifiers:)` and
/// `removePendingNotificationRequests(withIdentifiers:)` in one.
package enum RemoveNotificationsMethod: HeraldMethod {
    package static let name = "remove-notifications"
    package static let access: MethodAccess = .app
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "e6ea79b1240242c48ed3fe6d7cda4478", error: "fa5a7d5f501a453a8be6d0997188e096")
    package typealias Params = RemoveNotificationsParams
    package typealias Result = RemoveNotificationsResult
}

/// Exactly one of `identifiers` and `all: true`.
package struct RemoveNotificationsParams: Codable, Sendable, Hashable {
    /// The app whose notifications to remove; with `all`, a caller without a verified app
    /// (the person, an administrator) may omit it for every app of the uid.
    package var app: String?
    package var identifiers: [String]?
    package var all: Bool?
    /// Administrators only: another uid's notifications.
    package var uid: UInt32?

    package init(app: String?, identifiers: [String]? = nil, all: Bool? = nil, uid: UInt32? = nil) {
        self.app = app
        self.identifiers = identifiers
        self.all = all
        self.uid = uid
    }
}

extension RemoveNotificationsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            RemoveNotificationsParams(
                app: try members.optional("app"),
                identifiers: try members.optional("identifiers"),
                all: try members.optional("all"),
                uid: try members.optional("uid")
            )
        }
    }
}

package struct RemoveNotificationsResult: Codable, Sendable, Hashable {
    /// How many were removed; an identifier not in the list counts 0.
    package var removed: Int

    package init(removed: Int) {
        self.removed = removed
    }
}
