import HeraldCore
import HeraldProtocol

/// `restore-notifications` puts removed notifications back and has the presenters show the
/// delivered ones again.
extension RestoreNotificationsMethod: ServedMethod {
    static func handle(
        _ params: RestoreNotificationsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<RestoreNotificationsResult> {
        let (outcome, delivered) = try services.state.withLock(unsharingListOf: params.uid ?? context.caller.uid) { state throws(RuleError) in
            try state.restoreNotifications(params, caller: context.caller, now: services.clock.now())
        }
        services.presenters.delivered(delivered)
        return outcome
    }
}
