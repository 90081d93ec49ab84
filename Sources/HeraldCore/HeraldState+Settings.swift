import FoundationEssentials
import HeraldProtocol

extension HeraldState {
    /// `set-capabilities`: changes the capabilities given, keeps the others; the uid
    /// defaults to the caller's. communication and timeSensitive are the uid's own switches;
    /// another uid, and `critical` (granted or withdrawn), are an administrator's.
    package mutating func setCapabilities(
        _ p: SetCapabilitiesParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<SetCapabilitiesResult>
    {
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        try AppName.validate(p.app)
        if p.critical != nil, !caller.isAdministrator {
            throw RuleError.routineRefusal(
                "The critical capability is an administrator's grant; leave critical out to set communication and timeSensitive.",
                at: ["critical"]
            )
        }
        try requireRoomForSetting(p.app, uid: uid)
        let previous = settings.capabilities(uid: uid, app: p.app)
        var capabilities = previous
        if let communication = p.communication { capabilities.communication = communication }
        if let timeSensitive = p.timeSensitive { capabilities.timeSensitive = timeSensitive }
        if let critical = p.critical { capabilities.critical = critical }
        settings.setCapabilities(capabilities, uid: uid, app: p.app)
        var audit = AuditRecord(app: p.app)
        audit.settingUID = uid
        audit.capabilitiesChanged = capabilities.changes(from: previous)
        return MethodOutcome(result: SetCapabilitiesResult(app: p.app, uid: uid, capabilities: capabilities), audit: audit)
    }
}

extension Capabilities {
    /// The capabilities that differ from `previous`, as `name=value`, for the journal.
    func changes(from previous: Capabilities) -> [String] {
        [
            ("communication", communication, previous.communication),
            ("timeSensitive", timeSensitive, previous.timeSensitive),
            ("critical", critical, previous.critical),
        ].compactMap { name, now, before in now == before ? nil : "\(name)=\(now)" }
    }
}
