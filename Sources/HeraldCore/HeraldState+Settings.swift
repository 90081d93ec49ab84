import Foundation
import HeraldProtocol

extension HeraldState {
    /// `set-summary` (administrators, as its descriptor says; the method table checks): replaces the scheduled summary. Times are
    /// `"HH:MM"` or `"HH:MM:SS"` in the configured time zone; apps need at least one time.
    package mutating func setSummary(
        _ p: SetSummaryParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<SetSummaryResult>
    {
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
        summary = SummarySchedule(apps: p.apps, times: times)
        let result = SetSummaryResult(
            apps: summary.apps,
            times: summary.times.map(\.text),
            nextDelivery: summary.nextDelivery(after: now, in: configuration.timeZone)
        )
        return MethodOutcome(result: result, audit: AuditRecord())
    }

    /// `set-capabilities` (administrators, as its descriptor says; the method table checks): changes the capabilities given, keeps the
    /// others; the uid defaults to the caller's.
    package mutating func setCapabilities(
        _ p: SetCapabilitiesParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<SetCapabilitiesResult>
    {
        try AppName.validate(p.app)
        let uid = p.uid ?? caller.uid
        var capabilities = settings.capabilities(uid: uid, app: p.app)
        if let communication = p.communication { capabilities.communication = communication }
        if let timeSensitive = p.timeSensitive { capabilities.timeSensitive = timeSensitive }
        if let critical = p.critical { capabilities.critical = critical }
        settings.setCapabilities(capabilities, uid: uid, app: p.app)
        return MethodOutcome(
            result: SetCapabilitiesResult(app: p.app, uid: uid, capabilities: capabilities),
            audit: AuditRecord(app: p.app)
        )
    }
}
