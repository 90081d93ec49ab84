import HeraldCore
import HeraldProtocol

/// `search-notifications` reads a page of a uid's search index, within --max-response-bytes.
extension SearchNotificationsMethod: ServedMethod {
    static func handle(
        _ params: SearchNotificationsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<ListNotificationsResult> {
        let uid = try HeraldState.ownerUID(params.uid, caller: context.caller) ?? context.caller.uid
        return try services.state.read { $0.notificationListView(of: uid) }.searchNotifications(
            params, caller: context.caller, budget: services.environment.notificationPage(context))
    }
}
