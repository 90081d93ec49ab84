import HeraldCore
import HeraldProtocol

/// `update-content` turns content into a notification, decides its delivery and tells
/// the presenters of one they show.
extension UpdateContentMethod: ServedMethod {
    /// `update-content`'s APNs payload as content (nil without one), mapped outside the
    /// state's lock: reading JSON is the protocol's, not the rules'. The rules check the app
    /// first, so a payload error is reported only for a valid app name.
    private static func payloadContent(_ p: UpdateContentParams) throws -> NotificationContent? {
        guard p.content == nil, let payload = p.payload, !payload.isNull else { return nil }
        do throws(RPCError) {
            return try APNsPayload.content(from: payload)
        } catch {
            try HeraldState.checkAppName(p.app)
            throw error
        }
    }

    static func handle(
        _ params: UpdateContentParams, _ context: RequestContext, _ services: MethodServices
    ) throws -> MethodOutcome<UpdateContentResult> {
        let state = services.state
        let payloadContent = try Self.payloadContent(params)
        var params = params
        if params.identifier == nil { params.identifier = ChangeCapture.draw { HeraldState.newNotificationIdentifier() } }
        let presenting = !services.presenters.isEmpty
        // Standing grants are the uid's own gateway's: the presenter of its uid alone that
        // passes an app's notification on.
        let uid = context.caller.uid
        let gateway = params.gateway?.name == .freedesktop ? context.connection.flatMap { services.presenters.presentsOwn($0, uid: uid) ? $0 : nil } : nil
        if params.grant != nil, gateway == nil {
            throw RPCError(
                .permissionDenied,
                reason: "grant is for the uid's own gateway (herald-notify --gateway, subscribed to its uid's notifications) passing an app's notification on.",
                pointer: "/grant")
        }
        // The interaction it names is decoded from its record, and the communication
        // content made from it, before the lock (a look-up under it), not while every other
        // request waits.
        let decoded = params.interactionIdentifier.flatMap { identifier in
            state.read { $0.storedRecord(uid: uid, app: params.app, identifier: identifier) }
        }.map { DecodedInteraction($0, for: params, payloadContent: payloadContent) }
        // The presenters' copy is made, and the notification the list evicted freed,
        // after the lock: a list at --max-notifications evicts one on every call.
        var (outcome, listing) = try state.withLock(unsharingListOf: uid) { state throws(RuleError) in
            let now = services.clock.now()
            var answer = try state.updateContentListing(
                params, payloadContent: payloadContent, decoded: decoded, caller: context.caller, now: now)
            if let gateway {
                if params.interactionIdentifier == nil {
                    answer.outcome.result.grant = state.renewGrant(uid: uid, app: params.app, holder: gateway.number, now: now)
                } else {
                    state.dropGrant(uid: uid, app: params.app)
                }
            }
            return answer
        }
        outcome.audit.grant = params.grant?.id
        if presenting, outcome.result.delivery.presentation != .summary {
            var delivered = listing.notification(outcome.result, app: params.app)
            if delivered.content.categoryIdentifier != nil {
                delivered = state.read { [delivered] in $0.presented(delivered, uid: uid) }
            }
            // The gateway showed it already, as decided.
            let shownBy = outcome.result.grantHonoured == true ? gateway : nil
            services.presenters.delivered(NotificationDelivered(uid: uid, notification: delivered), except: shownBy)
        }
        return outcome
    }
}
