/// `subscribe-notifications`: makes this connection a presenter. It then receives
/// `notification-delivered`, `summary-delivered` and `notifications-removed`, one JSON-RPC
/// notification a line, as `focus-changed` subscribers do.
package enum SubscribeNotificationsMethod: HeraldMethod {
    package static let name = "subscribe-notifications"
    package static let journalMessageIDs = JournalMessageIDs(ok: "7bb0edb13b014cbe95f9e2f456360286", error: "2b866e0951b24a36ad73c619eca31fe9")
    package typealias Params = SubscribeNotificationsParams
    package typealias Result = SubscribeNotificationsResult
}

package struct SubscribeNotificationsParams: Codable, Sendable, Hashable {
    /// The uid whose notifications to present: a non-administrator's own only; an
    /// administrator's any, or every uid's without it. A non-administrator's default is its own.
    package var uid: UInt32?

    package init(uid: UInt32? = nil) {
        self.uid = uid
    }
}

extension SubscribeNotificationsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SubscribeNotificationsParams(uid: try members.optional("uid"))
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
