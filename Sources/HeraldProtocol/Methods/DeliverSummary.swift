/// `deliver-summary`: delivers the scheduled notifications now, as one summary per uid —
/// a person opening the upcoming summary early, as the system allows. A person delivers
/// their own; an administrator any uid's, or every uid's.
package enum DeliverSummaryMethod: HeraldMethod {
    package static let name = "deliver-summary"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "0ac61cfe1363494b839c089fddd2f60d", error: "162b7db3878846d7b22166034efa7952")
    package typealias Params = DeliverSummaryParams
    package typealias Result = DeliverSummaryResult
}

package struct DeliverSummaryParams: Codable, Sendable, Hashable {
    /// The uid whose summary to deliver: the caller's own without it, or for an
    /// administrator every uid's; another uid is an administrator's only.
    package var uid: UInt32?

    package init(uid: UInt32? = nil) {
        self.uid = uid
    }
}

extension DeliverSummaryParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            DeliverSummaryParams(uid: try members.optional("uid"))
        }
    }
}

package struct DeliverSummaryResult: Codable, Sendable, Hashable {
    /// How many notifications were delivered, every uid's together.
    package var delivered: Int

    package init(delivered: Int) {
        self.delivered = delivered
    }
}
