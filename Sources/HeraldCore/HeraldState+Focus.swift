import FoundationEssentials
import HeraldProtocol

extension HeraldState {
    /// `request-focus`: the app's authorization, and its Focus status when authorized.
    ///
    /// Asking for authorization while `notDetermined` applies the daemon's policy
    /// (``authorizationOnRequest(_:caller:now:audit:)``): `prompt` records a request for the
    /// person to answer, `allow` authorizes, `deny` denies. A decided status is never
    /// changed by asking again. Subscribing is the server's: it sends `focus-changed` while
    /// the app's authorization or ``focusStatus(uid:app:now:)`` changes.
    package mutating func requestFocus(
        _ p: RequestFocusParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<RequestFocusResult>
    {
        try AppName.validate(p.app)
        advanceFocus(uid: caller.uid, now: now)
        var audit = AuditRecord(app: p.app)
        let status = try authorizationOnRequest(p, caller: caller, now: now, audit: &audit)
        let focusStatus = status == .authorized ? FocusStatus(isFocused: isFocused(uid: caller.uid, app: p.app)) : nil
        return MethodOutcome(
            result: RequestFocusResult(authorizationStatus: status, focusStatus: focusStatus),
            audit: audit
        )
    }
}
