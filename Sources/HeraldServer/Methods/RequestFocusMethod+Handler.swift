import HeraldCore
import HeraldProtocol

/// `request-focus` reads (and may ask for) an app's Focus authorization, and may
/// subscribe the connection to `focus-changed`.
extension RequestFocusMethod: ServedMethod {
    static func handle(
        _ params: RequestFocusParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<RequestFocusResult> {
        let now = services.clock.now()
        let uid = context.caller.uid
        // Only a decision of the policy changes what other subscribers are told.
        let (outcome, current, decided) = try services.state.withLock { state throws(RuleError) in
            let outcome = try state.requestFocus(params, caller: context.caller, now: now)
            let current = FocusSubscriptions.Status(state.focusView, uid: uid, app: params.app, now: now)
            return (outcome, current, outcome.audit.authorization == nil ? nil : state.focusView)
        }
        // The other subscribers of this (uid, app) hear of a decision the policy made;
        // this connection subscribes after, with the status its result gives.
        if let decided {
            services.subscriptions.refresh(from: decided, now: now)
        }
        services.presenters.tellAuthorization(outcome.audit, uid: uid, app: params.app, authorization: current.authorization, now: now)
        if params.subscribe == true, let connection = context.connection {
            services.subscriptions.subscribe(connection, uid: uid, app: params.app, current: current)
        }
        return outcome
    }
}
