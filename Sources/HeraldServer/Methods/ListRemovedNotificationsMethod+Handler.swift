import HeraldCore
import HeraldProtocol

/// `list-removed-notifications` reads what can be restored, within --max-response-bytes.
extension ListRemovedNotificationsMethod: ServedMethod {
    static func handle(
        _ params: ListRemovedNotificationsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<ListRemovedNotificationsResult> {
        let budget = PageBudget<RemovedNotification>(maxBytes: services.environment.pageBytes(context)) { removed in
            (try? JSONValueEncoder().encode(removed)).map(MethodEnvironment.writtenSize) ?? 0
        }
        return try services.state.read(\.removedNotificationsView).listRemovedNotifications(
            params, caller: context.caller, now: services.clock.now(), budget: budget)
    }
}
