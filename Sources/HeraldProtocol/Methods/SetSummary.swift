import Foundation

/// `set-summary` (administrators): which apps go to the scheduled summary, and when it
/// is delivered. Replaces the whole schedule; the schedule belongs to the host.
public enum SetSummaryMethod: HeraldMethod {
    public static let name = "set-summary"
    public static let requiresAdministrator = true
    public static let journalMessageIDs = JournalMessageIDs(ok: "ffba532f28144121a67827d949d2e766", error: "fc14d830c41f463daa573c3a1d0739e3")
    public typealias Params = SetSummaryParams
    public typealias Result = SetSummaryResult
}

public struct SetSummaryParams: Codable, Sendable, Hashable {
    public var apps: [String]
    /// Local times, `"HH:MM"` or `"HH:MM:SS"` (00:00–23:59:59), in the daemon's time zone.
    public var times: [String]

    public init(apps: [String], times: [String]) {
        self.apps = apps
        self.times = times
    }
}

extension SetSummaryParams: ParamsReadable {
    public init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetSummaryParams(apps: try members.required("apps"), times: try members.required("times"))
        }
    }
}

public struct SetSummaryResult: Codable, Sendable, Hashable {
    public var apps: [String]
    /// Sorted, without duplicates.
    public var times: [String]
    /// The next summary time; absent when there are no times.
    public var nextDelivery: Date?

    public init(apps: [String], times: [String], nextDelivery: Date?) {
        self.apps = apps
        self.times = times
        self.nextDelivery = nextDelivery
    }
}
