/// `remove-notifications`: removes notifications from the caller's list, delivered and
/// scheduled alike — Apple's `removeDeliveredNotifications(withIdentifiers:)` and
/// `removePendingNotificationRequests(withIdentifiers:)` in one.
public enum RemoveNotificationsMethod: HeraldMethod {
    public static let name = "remove-notifications"
    public static let journalMessageIDs = JournalMessageIDs(ok: "e6ea79b1240242c48ed3fe6d7cda4478", error: "fa5a7d5f501a453a8be6d0997188e096")
    public typealias Params = RemoveNotificationsParams
    public typealias Result = RemoveNotificationsResult
}

/// Exactly one of `identifiers` and `all: true`.
public struct RemoveNotificationsParams: Codable, Sendable, Hashable {
    /// The app whose notifications to remove; an administrator may omit it (with `all`)
    /// for every app of the uid.
    public var app: String?
    public var identifiers: [String]?
    public var all: Bool?
    /// Administrators only: another uid's notifications.
    public var uid: UInt32?

    public init(app: String?, identifiers: [String]? = nil, all: Bool? = nil, uid: UInt32? = nil) {
        self.app = app
        self.identifiers = identifiers
        self.all = all
        self.uid = uid
    }
}

extension RemoveNotificationsParams: ParamsReadable {
    public init(reading value: ParamsReader) throws(RPCError) {
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

public struct RemoveNotificationsResult: Codable, Sendable, Hashable {
    /// How many were removed; an identifier not in the list counts 0.
    public var removed: Int

    public init(removed: Int) {
        self.removed = removed
    }
}
