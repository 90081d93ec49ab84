import HeraldCore
import HeraldProtocol

/// `list-notifications` reads a page of a uid's list, within --max-response-bytes.
extension ListNotificationsMethod: ServedMethod {
    static func handle(
        _ params: ListNotificationsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<ListNotificationsResult> {
        let uid = try HeraldState.ownerUID(params.uid, caller: context.caller) ?? context.caller.uid
        return try services.state.read { $0.notificationListView(of: uid) }.listNotifications(
            params, caller: context.caller, budget: services.environment.notificationPage(context))
    }
}
