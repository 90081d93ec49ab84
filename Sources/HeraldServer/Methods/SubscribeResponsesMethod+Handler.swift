import HeraldCore
import HeraldProtocol

/// `subscribe-responses` makes the connection an app's listener and hands it what waited.
extension SubscribeResponsesMethod: ServedMethod {
    static func handle(
        _ params: SubscribeResponsesParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<SubscribeResponsesResult> {
        guard let connection = context.connection else {
            // Nothing to subscribe (an in-process call): the responses keep waiting.
            try HeraldState.checkAppName(params.app)
            return MethodOutcome(
                result: SubscribeResponsesResult(app: params.app, pending: 0, dropped: 0), audit: AuditRecord(app: params.app))
        }
        let responses = services.responses
        let state = services.state
        let taken: (outcome: MethodOutcome<SubscribeResponsesResult>, pending: [NotificationResponse]) = try state.withLock {
            state throws(RuleError) in
            let taken = try state.subscribeResponses(params, caller: context.caller)
            responses.subscribe(connection, uid: context.caller.uid, app: params.app, observes: params.observe)
            return taken
        }
        let uid = context.caller.uid
        responses.deliverPending(taken.pending, to: connection) { response in
            responses.handOff(response, uid: uid, to: [], state: state)
        }
        return taken.outcome
    }
}
