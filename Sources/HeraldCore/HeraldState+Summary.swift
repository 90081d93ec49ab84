import FoundationEssentials
import HeraldProtocol

/// Each uid's scheduled summary: `set-summary`, `get-summary`. A caller acts on its own
/// uid; an administrator may name any `uid`.
extension HeraldState {
    /// `set-summary`: replaces the uid's scheduled summary. Times are `"HH:MM"` or
    /// `"HH:MM:SS"` in the configured time zone; apps need at least one time.
    ///
    /// Notifications held already keep the summary time they were given.
    package mutating func setSummary(
        _ p: SetSummaryParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<SetSummaryResult>
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        for (index, app) in p.apps.enumerated() {
            try AppName.validate(app, at: ["apps", .index(index)])
        }
        var times: [ClockTime] = []
        for (index, text) in p.times.enumerated() {
            guard let time = ClockTime(parsing: text) else {
                throw .invalidParams("A summary time is \"HH:MM\" or \"HH:MM:SS\", from 00:00 to 23:59:59; got \"\(text)\".", at: ["times", .index(index)])
            }
            times.append(time)
        }
        if !p.apps.isEmpty, times.isEmpty {
            throw .invalidParams("A summary that holds apps needs at least one time.", at: ["times"])
        }
        let summary = SummarySchedule(apps: p.apps, times: times)
        summaries[uid] = summary.apps.isEmpty && summary.times.isEmpty ? nil : summary
        return MethodOutcome(result: summaryReadBack(uid: uid, now: now), audit: AuditRecord())
    }

    /// `get-summary`: the uid's scheduled summary and its next delivery.
    package func getSummary(_ p: UIDParams, caller: Caller, now: Date) throws(RuleError) -> MethodOutcome<SetSummaryResult> {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        return MethodOutcome(result: summaryReadBack(uid: uid, now: now), audit: AuditRecord())
    }

    private func summaryReadBack(uid: UInt32, now: Date) -> SetSummaryResult {
        let summary = summaries[uid] ?? SummarySchedule()
        return SetSummaryResult(
            uid: uid,
            apps: summary.apps,
            times: summary.times.map(\.text),
            nextDelivery: summary.nextDelivery(after: now, in: configuration.timeZone)
        )
    }
}
