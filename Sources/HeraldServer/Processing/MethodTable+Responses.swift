import HeraldCore
import HeraldProtocol

extension MethodTable {
    /// Categories and responses: the sets of categories, a person's responses, and the
    /// apps that hear them.
    mutating func registerResponseMethods(
        _ environment: MethodEnvironment, presenters: NotificationPresenters, responses: ResponseSubscriptions
    ) {
        let state = environment.state
        let clock = environment.clock
        register(SetNotificationCategoriesMethod.self) { params, context in
            try state.withLock { state throws(RuleError) in try state.setNotificationCategories(params, caller: context.caller) }
        }
        register(GetNotificationCategoriesMethod.self) { params, context in
            try state.read { state in
                Result { () throws(RuleError) in try state.getNotificationCategories(params, caller: context.caller) }
            }.get()
        }
        register(RespondToNotificationMethod.self) { params, context in
            let responded = try state.withLock { state throws(RuleError) in
                try state.respondToNotification(params, caller: context.caller, now: clock.now()) { uid, app in
                    responses.isListening(uid: uid, app: app)
                }
            }
            environment.recordResponse(responded.uid, responded.response, responded.outcome.result.response)
            presenters.removed(responded.removed)
            if responded.outcome.result.response == .delivered {
                responses.deliver(responded.response, uid: responded.uid)
            }
            return responded.outcome
        }
        register(SubscribeResponsesMethod.self) { params, context in
            guard let connection = context.connection else {
                // Nothing to subscribe (an in-process call): the responses keep waiting.
                try HeraldState.checkAppName(params.app)
                return MethodOutcome(result: SubscribeResponsesResult(app: params.app, pending: 0, dropped: 0), audit: AuditRecord(app: params.app))
            }
            let taken: (outcome: MethodOutcome<SubscribeResponsesResult>, pending: [NotificationResponse]) = try state.withLock {
                state throws(RuleError) in
                let taken = try state.subscribeResponses(params, caller: context.caller)
                responses.subscribe(connection, uid: context.caller.uid, app: params.app)
                return taken
            }
            responses.deliverPending(taken.pending, to: connection)
            return taken.outcome
        }
    }
}
