import HeraldCore
import HeraldProtocol

/// `snooze-notification` puts a notification off and tells the presenters to take it down;
/// `HeraldServer.deliverDue(now:)` brings it back on time.
extension SnoozeNotificationMethod: ServedMethod {
    static func handle(
        _ params: SnoozeNotificationParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SnoozeNotificationResult> {
        let (outcome, removed) = try services.state.withLock(unsharingListOf: params.uid ?? context.caller.uid) { state throws(RuleError) in
            try state.snoozeNotification(params, caller: context.caller, now: services.clock.now())
        }
        services.presenters.removed(removed)
        return outcome
    }
}
