import Foundation
import HeraldProtocol

extension HeraldState {
    /// `request-focus`: the app's authorization, and its Focus status when authorized.
    ///
    /// Asking for authorization while `notDetermined` applies the daemon's policy:
    /// `prompt` keeps it `notDetermined` until an administrator decides, `allow`
    /// authorizes, `deny` denies. A decided status is never changed by asking again.
    /// Subscribing is the server's: it sends `focus-changed` while ``focusStatus(uid:app:now:)``
    /// is non-nil and changes.
    package mutating func requestFocus(
        _ p: RequestFocusParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<RequestFocusResult>
    {
        try AppName.validate(p.app)
        advanceFocus(uid: caller.uid, now: now)
        var status = settings.authorization(uid: caller.uid, app: p.app)
        if p.requestAuthorization == true, status == .notDetermined {
            switch configuration.focusAuthorizationPolicy {
            case .prompt: break
            case .allow: status = .authorized
            case .deny: status = .denied
            }
            if status != .notDetermined {
                if !settings.contains(uid: caller.uid, app: p.app) {
                    try requireRoomForApp(p.app, holding: settings.appCount(of: caller.uid))
                }
                settings.setAuthorization(status, uid: caller.uid, app: p.app)
            }
        }
        let focusStatus = status == .authorized ? FocusStatus(isFocused: isFocused(uid: caller.uid, app: p.app)) : nil
        return MethodOutcome(
            result: RequestFocusResult(authorizationStatus: status, focusStatus: focusStatus),
            audit: AuditRecord(app: p.app)
        )
    }

    /// `set-focus-authorization` (administrators, as its descriptor says; the method table checks): decides a (uid, app)'s Focus
    /// authorization; the uid defaults to the caller's.
    package mutating func setFocusAuthorization(
        _ p: SetFocusAuthorizationParams, caller: Caller, now: Date
    ) throws(RuleError)
        -> MethodOutcome<SetFocusAuthorizationResult>
    {
        try AppName.validate(p.app)
        let uid = p.uid ?? caller.uid
        settings.setAuthorization(p.status, uid: uid, app: p.app)
        return MethodOutcome(
            result: SetFocusAuthorizationResult(app: p.app, uid: uid, status: p.status),
            audit: AuditRecord(app: p.app)
        )
    }
}
