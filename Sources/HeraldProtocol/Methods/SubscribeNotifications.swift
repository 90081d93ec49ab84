/// `subscribe-notifications`: makes this connection a presenter. It then receives
/// `notification-delivered`, `summary-delivered` and `notifications-removed`, one JSON-RPC
/// notification a line, as `focus-changed` subscribers do.
public enum SubscribeNotificationsMethod: HeraldMethod {
    public static let name = "subscribe-notifications"
    public static let journalMessageIDs = JournalMessageIDs(ok: "7bb0edb13b014cbe95f9e2f456360286", error: "2b866e0951b24a36ad73c619eca31fe9")
    public typealias Params = SubscribeNotificationsParams
    public typealias Result = SubscribeNotificationsResult
}

public struct SubscribeNotificationsParams: Codable, Sendable, Hashable {
    /// The uid whose notifications to present: a non-administrator's own only; an
    /// administrator's any, or every uid's without it. A non-administrator's default is its own.
    public var uid: UInt32?

    public init(uid: UInt32? = nil) {
        self.uid = uid
    }
}

extension SubscribeNotificationsParams: ParamsReadable {
    public init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SubscribeNotificationsParams(uid: try members.optional("uid"))
        }
    }
}

public struct SubscribeNotificationsResult: Codable, Sendable, Hashable {
    /// The uid presented; absent for every uid.
    public var uid: UInt32?

    public init(uid: UInt32?) {
        self.uid = uid
    }
}
