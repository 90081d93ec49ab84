import FoundationEssentials

/// `set-summary`: which of the caller's apps go to its scheduled summary, and when it
/// is delivered. Replaces the whole schedule; each uid has its own, and an administrator
/// may name another `uid`.
package enum SetSummaryMethod: HeraldMethod {
    package static let name = "set-summary"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "ffba532f28144121a67827d949d2e766", error: "fc14d830c41f463daa573c3a1d0739e3")
    package typealias Params = SetSummaryParams
    package typealias Result = SetSummaryResult
}

package struct SetSummaryParams: Codable, Sendable, Hashable {
    package var apps: [String]
    /// Local times, `"HH:MM"` or `"HH:MM:SS"` (00:00–23:59:59), in the daemon's time zone.
    package var times: [String]
    /// Administrators only: another uid's summary.
    package var uid: UInt32?

    package init(apps: [String], times: [String], uid: UInt32? = nil) {
        self.apps = apps
        self.times = times
        self.uid = uid
    }
}

extension SetSummaryParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetSummaryParams(apps: try members.required("apps"), times: try members.required("times"), uid: try members.optional("uid"))
        }
    }
}

package struct SetSummaryResult: Codable, Sendable, Hashable {
    /// Whose summary this is.
    package var uid: UInt32?
    package var apps: [String]
    /// Sorted, without duplicates.
    package var times: [String]
    /// The next summary time; absent when there are no times.
    package var nextDelivery: Date?

    package init(uid: UInt32? = nil, apps: [String], times: [String], nextDelivery: Date?) {
        self.uid = uid
        self.apps = apps
        self.times = times
        self.nextDelivery = nextDelivery
    }
}
