import Foundation
import HeraldProtocol

extension HeraldState {
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
