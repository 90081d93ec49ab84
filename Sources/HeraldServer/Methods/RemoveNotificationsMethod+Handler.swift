import HeraldCore
import HeraldProtocol

/// `remove-notifications` removes from a uid's list and tells the presenters.
extension RemoveNotificationsMethod: ServedMethod {
    static func handle(
        _ params: RemoveNotificationsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<RemoveNotificationsResult> {
        let (outcome, removed) = try services.state.withLock(unsharingListOf: params.uid ?? context.caller.uid) { state throws(RuleError) in
            try state.removeNotifications(params, caller: context.caller, now: services.clock.now())
        }
        removed.forEach(services.presenters.removed)
        return outcome
    }
}
