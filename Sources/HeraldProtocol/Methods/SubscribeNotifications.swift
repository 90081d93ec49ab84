import FoundationEssentials

/// `subscribe-notifications`: makes this connection a presenter. It then receives
/// `notification-delivered`, `summary-delivered` and `notifications-removed`, one JSON-RPC
/// notification a line, as `focus-changed` subscribers do; with `since`, first the
/// notifications it missed.
package enum SubscribeNotificationsMethod: HeraldMethod {
    package static let name = "subscribe-notifications"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "7bb0edb13b014cbe95f9e2f456360286", error: "2b866e0951b24a36ad73c619eca31fe9")
    package typealias Params = SubscribeNotificationsParams
    package typealias Result = SubscribeNotificationsResult
}

package struct SubscribeNotificationsParams: Codable, Sendable, Hashable {
    /// The uid whose notifications to present: a non-administrator's own only; an
    /// administrator's any, or every uid's without it. A non-administrator's default is its own.
    package var uid: UInt32?
    /// Until when this presenter (its person's desktop) last presented: the uid's alert and
    /// quiet notifications delivered after it are sent first, as `notification-delivered`,
    /// the newest ``maximumMissed`` of them, oldest first. Needs one uid presented.
    package var since: Date?

    /// The most missed notifications sent: a desktop coming back shows the latest few, and
    /// the list (`list-notifications`) keeps the rest.
    package static let maximumMissed = 20

    package init(uid: UInt32? = nil, since: Date? = nil) {
        self.uid = uid
        self.since = since
    }
}

extension SubscribeNotificationsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SubscribeNotificationsParams(uid: try members.optional("uid"), since: try members.optional("since"))
        }
    }
}

package struct SubscribeNotificationsResult: Codable, Sendable, Hashable {
    /// The uid presented; absent for every uid.
    package var uid: UInt32?

    package init(uid: UInt32?) {
        self.uid = uid
    }
}
