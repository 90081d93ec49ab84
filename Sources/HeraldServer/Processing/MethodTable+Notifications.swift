import HeraldCore
import HeraldProtocol

extension MethodTable {
    /// The notification list's methods, and the presenters each one tells.
    mutating func registerNotificationMethods(_ environment: MethodEnvironment, presenters: NotificationPresenters) {
        let state = environment.state
        let clock = environment.clock
        register(ListNotificationsMethod.self) { params, context in
            try state.read(\.notificationListView).listNotifications(
                params, caller: context.caller, budget: environment.notificationPage(context))
        }
        register(RemoveNotificationsMethod.self) { params, context in
            let (outcome, removed) = try state.withLock { state throws(RuleError) in
                try state.removeNotifications(params, caller: context.caller)
            }
            removed.forEach(presenters.removed)
            return outcome
        }
        register(DeliverSummaryMethod.self) { params, context in
            let (outcome, summaries) = try state.withLock { state throws(RuleError) in
                try state.deliverSummary(params, caller: context.caller, now: clock.now())
            }
            for summary in summaries {
                environment.recordSummary(summary)
                presenters.summaryDelivered(summary)
            }
            return outcome
        }
        register(SubscribeNotificationsMethod.self) { params, context in
            let uid = try HeraldState.presenterUID(params, caller: context.caller)
            let missedUID = try HeraldState.missedUID(params, presenting: uid)
            if let connection = context.connection {
                presenters.subscribe(connection, uid: uid)
                if let missedUID, let since = params.since {
                    let view = state.read(\.notificationListView)
                    let missed = view.missed(uid: missedUID, since: since, limit: SubscribeNotificationsParams.maximumMissed)
                    presenters.sendMissed(missed, uid: missedUID, to: connection)
                }
            }
            return MethodOutcome(result: SubscribeNotificationsResult(uid: uid), audit: AuditRecord())
        }
    }
}
