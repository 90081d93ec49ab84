import HeraldCore
import HeraldProtocol

/// `list-notifications` reads a page of a uid's list, within --max-response-bytes.
extension ListNotificationsMethod: ServedMethod {
    static func handle(
        _ params: ListNotificationsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<ListNotificationsResult> {
        try services.state.read(\.notificationListView).listNotifications(
            params, caller: context.caller, budget: services.environment.notificationPage(context))
    }
}
