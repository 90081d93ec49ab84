/// `list-notifications`: the caller's notification list, newest first — Apple's
/// `getDeliveredNotifications` and `getPendingNotificationRequests` in one.
package enum ListNotificationsMethod: HeraldMethod {
    package static let name = "list-notifications"
    package static let access: MethodAccess = .app
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "24a106b30a25418399acc2126ad1ed6d", error: "c48b676936de481abd08cfe7923911ea")
    /// A full page (up to `--max-response-bytes`, from a list of up to 10,000) takes
    /// milliseconds to sort and write: on the event loop, every other connection of that
    /// loop would wait for it.
    package static let placement = MethodPlacement.thread
    package typealias Params = ListNotificationsParams
    package typealias Result = ListNotificationsResult
}

package struct ListNotificationsParams: Codable, Sendable, Hashable {
    /// The app whose notifications to list; an administrator may omit it for every app of the uid.
    package var app: String?
    /// Only the notifications in this state; both without it.
    package var state: NotificationState?
    /// At most this many on the page (the newest); as many as fit without it.
    package var limit: Int?
    /// The `nextCursor` of the page before: this page starts after it.
    package var cursor: String?
    /// Administrators only: another uid's list.
    package var uid: UInt32?

    package init(app: String?, state: NotificationState? = nil, limit: Int? = nil, cursor: String? = nil, uid: UInt32? = nil) {
        self.app = app
        self.state = state
        self.limit = limit
        self.cursor = cursor
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
                cursor: try members.optional("cursor"),
                uid: try members.optional("uid")
            )
        }
    }
}

package struct ListNotificationsResult: Codable, Sendable, Hashable {
    /// Newest first: one page, within `--max-response-bytes`.
    package var notifications: [HeraldNotification]
    /// Present when more are left: the `cursor` of the next page.
    package var nextCursor: String?

    package init(notifications: [HeraldNotification], nextCursor: String? = nil) {
        self.notifications = notifications
        self.nextCursor = nextCursor
    }
}

/// Written directly: a list holds up to `--max-notifications` (see `JSONDirectEncodable`).
extension ListNotificationsResult: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("notifications", notifications)
        members.add("nextCursor", nextCursor)
    }
}
