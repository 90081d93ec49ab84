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
            let responded: (RespondedNotification, listeners: [ConnectionIdentity]) = try state.withLock { state throws(RuleError) in
                var listeners: [ConnectionIdentity] = []
                let responded = try state.respondToNotification(params, caller: context.caller, now: clock.now()) { uid, app in
                    listeners = responses.listeners(uid: uid, app: app)
                    return !listeners.isEmpty
                }
                return (responded, listeners)
            }
            let (notification, listeners) = responded
            environment.recordResponse(notification.uid, notification.response, notification.outcome.result.response)
            presenters.removed(notification.removed)
            responses.tellObservers(notification.response, uid: notification.uid)
            if notification.outcome.result.response == .delivered {
                Self.handOff(notification.response, uid: notification.uid, to: listeners, state: state, responses: responses)
            }
            return notification.outcome
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
                responses.subscribe(connection, uid: context.caller.uid, app: params.app, observes: params.observe)
                return taken
            }
            let uid = context.caller.uid
            responses.deliverPending(taken.pending, to: connection) { response in
                Self.handOff(response, uid: uid, to: [], state: state, responses: responses)
            }
            return taken.outcome
        }
    }

    /// Sends `response` to the connections that listened for it. One that none of them took
    /// (each closed before the write) goes to whoever subscribed since, or waits for the
    /// app's next `subscribe-responses`, decided under the state's lock as a subscription is;
    /// after a few tries it waits.
    private static func handOff(
        _ response: NotificationResponse, uid: UInt32, to listeners: [ConnectionIdentity], state: SharedState,
        responses: ResponseSubscriptions, attempt: Int = 1
    ) {
        responses.deliver(response, to: listeners) {
            let listening = state.withLock { state in
                let listening = attempt < 3 ? responses.listeners(uid: uid, app: response.app) : []
                if listening.isEmpty { state.keepUndeliveredResponse(response, uid: uid) }
                return listening
            }
            if !listening.isEmpty {
                handOff(response, uid: uid, to: listening, state: state, responses: responses, attempt: attempt + 1)
            }
        }
    }
}
