import FoundationEssentials

/// `list-removed-notifications`: what `restore-notifications` can bring back now — the
/// notifications the person removed within `--undo-window`, most recently removed first.
package enum ListRemovedNotificationsMethod: HeraldMethod {
    package static let name = "list-removed-notifications"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "2c5632e9cfa74602aeb68eed59fbef59", error: "4e0df56ad9f24e2983a6d8278f6fb17c")
    package typealias Params = ListRemovedNotificationsParams
    package typealias Result = ListRemovedNotificationsResult
}

package struct ListRemovedNotificationsParams: Codable, Sendable, Hashable {
    /// Only this app's; every app's without it.
    package var app: String?
    /// At most this many (the most recently removed); as many as fit without it.
    package var limit: Int?
    /// Administrators only: another uid's.
    package var uid: UInt32?

    package init(app: String? = nil, limit: Int? = nil, uid: UInt32? = nil) {
        self.app = app
        self.limit = limit
        self.uid = uid
    }
}

extension ListRemovedNotificationsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            ListRemovedNotificationsParams(
                app: try members.optional("app"),
                limit: try members.optional("limit"),
                uid: try members.optional("uid")
            )
        }
    }
}

/// A notification the person removed, restorable until `restorableUntil`.
package struct RemovedNotification: Codable, Sendable, Hashable {
    /// As it was in the list when removed (its state there, `delivered`, `scheduled` or `snoozed`).
    package var notification: HeraldNotification
    package var removedAt: Date
    /// When it is gone for good: `removedAt` plus `--undo-window`.
    package var restorableUntil: Date

    package init(notification: HeraldNotification, removedAt: Date, restorableUntil: Date) {
        self.notification = notification
        self.removedAt = removedAt
        self.restorableUntil = restorableUntil
    }
}

package struct ListRemovedNotificationsResult: Codable, Sendable, Hashable {
    /// Most recently removed first, within `--max-response-bytes`.
    package var notifications: [RemovedNotification]
    /// True when more were left out (by `limit` or the response's size).
    package var more: Bool

    package init(notifications: [RemovedNotification], more: Bool = false) {
        self.notifications = notifications
        self.more = more
    }
}
