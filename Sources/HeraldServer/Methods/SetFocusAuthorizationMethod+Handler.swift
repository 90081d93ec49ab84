import HeraldCore
import HeraldProtocol

/// `set-focus-authorization` answers an app's Focus authorization, and tells its
/// subscribers and the uid's presenters.
extension SetFocusAuthorizationMethod: ServedMethod {
    static func handle(
        _ params: SetFocusAuthorizationParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SetFocusAuthorizationResult> {
        let now = services.clock.now()
        let (outcome, view) = try services.state.withLock { state throws(RuleError) in
            (try state.setFocusAuthorization(params, caller: context.caller, now: now), state.focusView)
        }
        services.subscriptions.refresh(from: view, now: now)
        services.presenters.tellAuthorization(
            outcome.audit, uid: outcome.result.uid, app: params.app, authorization: outcome.result.status, now: now)
        return outcome
    }
}
