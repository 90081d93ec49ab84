/// `deliver-summary` (administrators): delivers the scheduled notifications now, as one
/// summary per uid — a person opening the upcoming summary early, as the system allows.
public enum DeliverSummaryMethod: HeraldMethod {
    public static let name = "deliver-summary"
    public static let requiresAdministrator = true
    public static let journalMessageIDs = JournalMessageIDs(ok: "0ac61cfe1363494b839c089fddd2f60d", error: "162b7db3878846d7b22166034efa7952")
    public typealias Params = DeliverSummaryParams
    public typealias Result = DeliverSummaryResult
}

public struct DeliverSummaryParams: Codable, Sendable, Hashable {
    /// The uid whose summary to deliver; every uid's without it.
    public var uid: UInt32?

    public init(uid: UInt32? = nil) {
        self.uid = uid
    }
}

extension DeliverSummaryParams: ParamsReadable {
    public init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            DeliverSummaryParams(uid: try members.optional("uid"))
        }
    }
}

public struct DeliverSummaryResult: Codable, Sendable, Hashable {
    /// How many notifications were delivered, every uid's together.
    public var delivered: Int

    public init(delivered: Int) {
        self.delivered = delivered
    }
}
