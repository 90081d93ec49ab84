import Foundation
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
        expireFocus(now: now)
        var audit = AuditRecord(app: p.app)
        let status = try authorizationOnRequest(p, caller: caller, now: now, audit: &audit)
        let focusStatus = status == .authorized ? FocusStatus(isFocused: focus.isFocused(app: p.app, at: now)) : nil
        return MethodOutcome(
            result: RequestFocusResult(authorizationStatus: status, focusStatus: focusStatus),
            audit: audit
        )
    }

    /// `set-focus` (administrators, as its descriptor says; the method table checks): turns the host's Focus on — a new activation, even
    /// with the same configuration — or off with `null`. Returns the Focus in effect.
    package mutating func setFocus(
        _ p: SetFocusParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<SetFocusResult>
    {
        expireFocus(now: now)
        guard let configuration = p.focus else {
            focus.turnOff()
            return MethodOutcome(result: SetFocusResult(focus: nil), audit: AuditRecord())
        }
        guard !configuration.name.isEmpty else {
            throw .invalidParams("A Focus needs a name, such as Work or Sleep.", at: ["focus", "name"])
        }
        for (index, person) in configuration.allowedPeople.enumerated() {
            try PersonRules.validateAllowed(person, at: ["focus", "allowedPeople", .index(index)])
        }
        for (index, app) in configuration.allowedApps.enumerated() {
            try AppName.validate(app, at: ["focus", "allowedApps", .index(index)])
        }
        if let until = configuration.until, until <= now {
            throw .invalidParams("until must be in the future; to turn the Focus off, send focus: null.", at: ["focus", "until"])
        }
        focus.turnOn(configuration)
        return MethodOutcome(result: SetFocusResult(focus: configuration), audit: AuditRecord())
    }
}
