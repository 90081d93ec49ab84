import HeraldCore
import HeraldProtocol

/// `subscribe-notifications` makes the connection a presenter, and sends what it missed.
extension SubscribeNotificationsMethod: ServedMethod {
    static func handle(
        _ params: SubscribeNotificationsParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SubscribeNotificationsResult> {
        let uid = try HeraldState.presenterUID(params, caller: context.caller)
        let missedUID = try HeraldState.missedUID(params, presenting: uid)
        if let connection = context.connection {
            services.presenters.subscribe(connection, uid: uid, owner: context.caller.uid)
            if let missedUID, let since = params.since {
                let view = services.state.read { $0.notificationListView(of: missedUID) }
                let missed = view.missed(uid: missedUID, since: since, limit: SubscribeNotificationsParams.maximumMissed)
                services.presenters.sendMissed(missed, uid: missedUID, to: connection)
            }
        }
        return MethodOutcome(result: SubscribeNotificationsResult(uid: uid), audit: AuditRecord())
    }
}
