/// `list-notifications`: the caller's notification list, newest first — Apple's
/// `getDeliveredNotifications` and `getPendingNotificationRequests` in one.
package enum ListNotificationsMethod: HeraldMethod {
    package static let name = "list-notifications"
    package static let journalMessageIDs = JournalMessageIDs(ok: "24a106b30a25418399acc2126ad1ed6d", error: "c48b676936de481abd08cfe7923911ea")
    /// A full list (10,000 notifications, 5 MB of JSON) takes about 100 ms to build and
    /// write: on the event loop, every other connection of that loop would wait for it.
    package static let placement = MethodPlacement.thread
    package typealias Params = ListNotificationsParams
    package typealias Result = ListNotificationsResult
}

package struct ListNotificationsParams: Codable, Sendable, Hashable {
    /// The app whose notifications to list; an administrator may omit it for every app of the uid.
    package var app: String?
    /// Only the notifications in this state; both without it.
    package var state: NotificationState?
    /// At most this many (the newest); all without it.
    package var limit: Int?
    /// Administrators only: another uid's list.
    package var uid: UInt32?

    package init(app: String?, state: NotificationState? = nil, limit: Int? = nil, uid: UInt32? = nil) {
        self.app = app
        self.state = state
        self.limit = limit
        self.uid = uid
    }
}

extension ListNotificationsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            ListNotificationsParams(
                app: try members.optional("app"),
                state: try members.optional("state"),
                limit: try members.optional("limit"),
                uid: try members.optional("uid")
            )
        }
    }
}

package struct ListNotificationsResult: Codable, Sendable, Hashable {
    /// Newest first.
    package var notifications: [HeraldNotification]

    package init(notifications: [HeraldNotification]) {
        self.notifications = notifications
    }
}

/// Written directly: a list holds up to `--max-notifications` (see `JSONDirectEncodable`).
extension ListNotificationsResult: JSONDirectEncodable {
    package var directJSONValue: JSONValue {
        var members = JSONDirectMembers(capacity: 1)
        members.add("notifications", notifications)
        return members.value
    }
}
