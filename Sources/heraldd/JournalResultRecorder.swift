import HeraldCore
import HeraldProtocol
import HeraldServer
import HeraldSystemd

/// Writes every RPC result to the journal as one structured entry, through the bounded
/// queue of the journal writer so that a slow journald never slows a response.
///
/// The fields carry identifiers, codes and reason codes only — never a communication's
/// content, nor any other text of the client's: an error's reason is built from its code,
/// the schema's pointer and its limit (``JournalErrorReason``), a string id is kept by its
/// length, a method Herald does not serve is `*`.
struct JournalResultRecorder: ResultRecorder {
    let writer: JournalWriter
    let errors: JournalErrorReason

    func record(_ result: ResultRecord) {
        writer.submit(ResultJournalRecord(result: result, errors: errors))
    }

    /// Connections pause while the writer's queue is congested, so that results are not
    /// dropped under sustained load.
    var pressure: (any IntakePressure)? { JournalQueuePressure(writer: writer) }

    static func entry(for result: ResultRecord, errors: JournalErrorReason) -> JournalEntry {
        let priority: JournalPriority
        switch result.outcome {
        case .ok: priority = .info
        // The person asking for an administrator's method is routine (notice); a verified
        // app reaching past itself, another uid's data, a bad request stay warnings.
        case .error where result.isRoutineRefusal: priority = .notice
        case .error: priority = (result.errorCode?.isClientError ?? true) ? .warning : .error
        }
        var fields: [(String, String)] = [
            ("MESSAGE_ID", messageID(for: result)),
            ("HERALD_METHOD", result.servedMethod ?? JournalMessageID.unreadableMethod),
            ("HERALD_OUTCOME", result.outcome.rawValue),
            ("HERALD_PEER_UID", String(result.caller.uid)),
            ("HERALD_PEER_PID", String(result.caller.pid)),
            // Whether the app was verified, and by what: a delivery decision for an app that
            // named itself is the person's word, not the sandbox's.
            ("HERALD_APP_VERIFIED", result.caller.app == nil && result.audit.gatewayAppVerifiedBy == nil ? "0" : "1"),
            ("HERALD_DURATION_USEC", String(result.durationMicroseconds)),
        ]
        if let id = result.requestID {
            // A string id is the client's text: its length says enough to tell ids apart.
            if id.hasPrefix("\"") {
                fields.append(("HERALD_REQUEST_ID_BYTES", String(id.utf8.count - 2)))
            } else {
                fields.append(("HERALD_REQUEST_ID", id))
            }
        }
        if let code = result.errorCode {
            fields.append(("HERALD_ERROR_CODE", String(code.rawValue)))
            // Made here, on the writer's thread, not on the event loop that answered.
            fields.append(("HERALD_ERROR_REASON", errors.reason(code: code, pointer: result.errorPointer, limit: result.errorLimit)))
        }
        if let pointer = result.errorPointer, !pointer.isEmpty {
            fields.append(("HERALD_ERROR_POINTER", errors.schemaPointer(pointer)))
        }
        let audit = result.audit
        if let app = audit.app { fields.append(("HERALD_APP", app)) }
        if let app = result.caller.app {
            fields.append(("HERALD_PEER_APP", app.id))
            fields.append(("HERALD_APP_SOURCE", app.source.rawValue))
        }
        // Passed on by the person's gateway: which, and what it verified the app by.
        if let gateway = audit.gateway { fields.append(("HERALD_GATEWAY", gateway)) }
        if let grant = audit.grant { fields.append(("HERALD_GRANT", String(grant))) }
        if let honoured = audit.grantHonoured { fields.append(("HERALD_GRANT_HONOURED", honoured ? "1" : "0")) }
        if let source = audit.gatewayAppVerifiedBy { fields.append(("HERALD_APP_SOURCE", source)) }
        if let value = audit.interactionIdentifier { fields.append(("HERALD_INTERACTION_ID", value)) }
        if let value = audit.conversationIdentifier { fields.append(("HERALD_CONVERSATION_ID", value)) }
        if let value = audit.direction { fields.append(("HERALD_DIRECTION", value)) }
        if let value = audit.intent { fields.append(("HERALD_INTENT", value)) }
        if let value = audit.presentation { fields.append(("HERALD_PRESENTATION", value)) }
        if !audit.reasons.isEmpty { fields.append(("HERALD_REASONS", audit.reasons.joined(separator: ","))) }
        // One HERALD_REASON per reason as well (journald keeps a field's every value), so
        // that `journalctl HERALD_REASON=silencedByFocus` finds it among others.
        for reason in audit.reasons { fields.append(("HERALD_REASON", reason)) }
        if !audit.silencedCauses.isEmpty { fields.append(("HERALD_SILENCED_CAUSES", audit.silencedCauses.joined(separator: ","))) }
        if let focus = audit.focus { fields.append(("HERALD_FOCUS", focus)) }
        if let value = audit.notificationIdentifier { fields.append(("HERALD_NOTIFICATION_ID", value)) }
        if let identifiers = audit.notificationIdentifiers {
            fields.append(("HERALD_COUNT", String(identifiers.count)))
            fields.append(("HERALD_NOTIFICATION_IDS", NotificationJournal.identifiersField(identifiers)))
        }
        // A setting's change: whose, and what it became; never a person's handle.
        if let uid = audit.settingUID { fields.append(("HERALD_SETTING_UID", String(uid))) }
        if let value = audit.authorization { fields.append(("HERALD_AUTHORIZATION", value)) }
        if let value = audit.previousAuthorization { fields.append(("HERALD_PREVIOUS_AUTHORIZATION", value)) }
        if let value = audit.authorizationRequest { fields.append(("HERALD_AUTHORIZATION_REQUEST", value.rawValue)) }
        if let changed = audit.capabilitiesChanged {
            fields.append(("HERALD_CAPABILITIES_CHANGED", changed.isEmpty ? "none" : changed.joined(separator: ",")))
        }
        if let changed = audit.conversationControl { fields.append(("HERALD_CONVERSATION_CONTROL", changed.joined(separator: ","))) }
        if let seconds = audit.cooldownSeconds { fields.append(("HERALD_COOLDOWN_SECONDS", String(seconds))) }
        // A result entry is a few hundred bytes in at most 30 fields: one allocation each.
        var entry = JournalEntry(reservingBytes: 768, fields: 30)
        append("PRIORITY", String(priority.rawValue), to: &entry)
        append("MESSAGE", result.summaryLine, to: &entry)
        for (name, value) in fields {
            append(name, value, to: &entry)
        }
        return entry
    }

    /// Appends a field whose name is one of the fixed names above, so it is always valid.
    private static func append(_ name: String, _ value: String, to entry: inout JournalEntry) {
        try? entry.append(name: name, value: value)
    }

    /// The catalog entry that explains this result: the method's own ok or error entry,
    /// or, for what never reached a method, the entry for that kind of failure.
    private static func messageID(for result: ResultRecord) -> String {
        switch (result.errorCode, result.method) {
        case (.parseError?, _): return JournalMessageID.parseError
        case (.internalError?, _): return JournalMessageID.internalError
        case (_, nil), (.invalidRequest?, _): return JournalMessageID.invalidRequest
        case (_, let method?):
            guard let ids = HeraldMethods.journalMessageIDs[method] else { return JournalMessageID.methodNotFound }
            return result.outcome == .ok ? ids.ok : ids.error
        }
    }
}

/// A result on its way to the journal: its entry is made on the writer's thread.
struct ResultJournalRecord: JournalRecord {
    let result: ResultRecord
    let errors: JournalErrorReason

    func journalEntry() -> JournalEntry {
        JournalResultRecorder.entry(for: result, errors: errors)
    }
}

/// The journal writer's queue as the server's back-pressure.
struct JournalQueuePressure: IntakePressure {
    let writer: JournalWriter

    var isHigh: Bool { writer.isCongested }

    func resumeWhenLow(_ resume: @escaping @Sendable () -> Void) -> Bool {
        writer.resumeWhenRelieved(resume)
    }

    func releaseIfStalled() -> Bool {
        writer.releaseIfStalled()
    }
}
