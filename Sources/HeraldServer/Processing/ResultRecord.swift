import HeraldCore
import HeraldProtocol

/// What Herald records about one RPC result for the audit trail: every response, every
/// error (parse errors and invalid requests included), and every notification handled.
///
/// It never carries the content of a communication: no text, titles, bodies, images or
/// user info — only identifiers, codes and the delivery decision's reason codes.
package struct ResultRecord: Sendable, Hashable {
    package enum Outcome: String, Sendable, Hashable {
        case ok
        case error
    }

    /// The method as the client named it; nil when the request had none that could be read.
    /// A name Herald does not serve is the client's text: see ``servedMethod``.
    package var method: String?
    /// The JSON-RPC id as compact JSON text (`7`, `"a"`, `null`); nil for a notification.
    /// A string id is the client's text: a recorder that keeps it keeps its length only.
    package var requestID: String?
    package var outcome: Outcome
    package var errorCode: ErrorCode?
    /// The member at fault as the client got it (`data.pointer`); nil for a result. It may
    /// name a member the client made up: a recorder keeps it through
    /// ``JournalErrorReason``, off the event loop (the journal's on its writer thread).
    /// The error's `data.reason` is not kept at all, since it may quote the request.
    package var errorPointer: String?
    /// The error's `data.limit`, when it has one.
    package var errorLimit: Int?
    /// A refusal a person meets in ordinary use (``RPCError/isRoutineRefusal``).
    package var isRoutineRefusal = false
    package var caller: Caller
    package var durationMicroseconds: UInt64
    package var audit: AuditRecord

    package init(
        method: String?,
        requestID: String?,
        outcome: Outcome,
        errorCode: ErrorCode?,
        errorPointer: String? = nil,
        errorLimit: Int? = nil,
        caller: Caller,
        durationMicroseconds: UInt64,
        audit: AuditRecord
    ) {
        self.method = method
        self.requestID = requestID
        self.outcome = outcome
        self.errorCode = errorCode
        self.errorPointer = errorPointer
        self.errorLimit = errorLimit
        self.caller = caller
        self.durationMicroseconds = durationMicroseconds
        self.audit = audit
    }

    /// The method when Herald serves one by that name; nil for a name it does not, which
    /// is only the client's text.
    package var servedMethod: String? {
        guard let method, HeraldMethods.journalMessageIDs[method] != nil else { return nil }
        return method
    }

    /// One short line a person can read, such as
    /// `donate ok app=org.example.chat interaction=m-17 incoming sendMessage`.
    package var summaryLine: String {
        var line = servedMethod ?? (method == nil ? "(no method)" : "(unknown method)")
        switch outcome {
        case .ok: line += " ok"
        case .error: line += " error \(errorCode?.rawValue ?? 0)"
        }
        if let app = audit.app { line += " app=\(app)" }
        if let interaction = audit.interactionIdentifier { line += " interaction=\(interaction)" }
        if let direction = audit.direction { line += " \(direction)" }
        if let intent = audit.intent { line += " \(intent)" }
        if let presentation = audit.presentation { line += " \(presentation)" }
        if !audit.reasons.isEmpty { line += " (\(audit.reasons.joined(separator: ",")))" }
        if let uid = audit.settingUID { line += " uid=\(uid)" }
        if let authorization = audit.authorization { line += " authorization=\(authorization)" }
        if let request = audit.authorizationRequest { line += " request=\(request.rawValue)" }
        if let changed = audit.capabilitiesChanged { line += " capabilities=\(changed.isEmpty ? "none" : changed.joined(separator: ","))" }
        if let seconds = audit.cooldownSeconds { line += " cooldown=\(seconds)s" }
        return line
    }
}

/// Where result records go: in `heraldd`, the journal writer.
package protocol ResultRecorder: Sendable {
    func record(_ result: ResultRecord)
    /// Whether `record` keeps anything: the processor builds no record for a recorder that
    /// keeps none (`--log-target none`), only counts the result.
    var keepsRecords: Bool { get }
    /// The back-pressure of where the records go, if it can push back; connections pause
    /// while it is high.
    var pressure: (any IntakePressure)? { get }
}

extension ResultRecorder {
    package var keepsRecords: Bool { true }
    package var pressure: (any IntakePressure)? { nil }
}

/// Records nothing; for tests and `--log-target none`.
package struct DiscardingResultRecorder: ResultRecorder {
    package init() {}
    package func record(_ result: ResultRecord) {}
    package var keepsRecords: Bool { false }
}
