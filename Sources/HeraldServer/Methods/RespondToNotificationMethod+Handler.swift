import HeraldCore
import HeraldProtocol

/// `respond-to-notification` records a person's response, journals it and hands it to
/// the app's listeners.
extension RespondToNotificationMethod: ServedMethod {
    static func handle(
        _ params: RespondToNotificationParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<RespondToNotificationResult> {
        let responses = services.responses
        let responded: (RespondedNotification, listeners: [ConnectionIdentity]) = try services.state.withLock(unsharingListOf: params.uid ?? context.caller.uid) { state throws(RuleError) in
            var listeners: [ConnectionIdentity] = []
            let responded = try state.respondToNotification(params, caller: context.caller, now: services.clock.now()) { uid, app in
                listeners = responses.listeners(uid: uid, app: app)
                return !listeners.isEmpty
            }
            return (responded, listeners)
        }
        let (notification, listeners) = responded
        services.environment.recordResponse(notification.uid, notification.response, notification.outcome.result.response)
        services.presenters.removed(notification.removed)
        responses.tellObservers(notification.response, uid: notification.uid)
        if notification.outcome.result.response == .delivered {
            responses.handOff(notification.response, uid: notification.uid, to: listeners, state: services.state)
        }
        return notification.outcome
    }
}
