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
        // The presenters' copy is made, and the notification the list evicted freed,
        // after the lock: a list at --max-notifications evicts one on every call.
        let (outcome, listing) = try state.withLock(unsharingListOf: context.caller.uid) { state throws(RuleError) in
            try state.updateContentListing(params, payloadContent: payloadContent, caller: context.caller, now: services.clock.now())
        }
        if presenting, outcome.result.delivery.presentation != .summary {
            var delivered = listing.notification(outcome.result, app: params.app)
            if delivered.content.categoryIdentifier != nil {
                delivered = state.read { [delivered] in $0.presented(delivered, uid: context.caller.uid) }
            }
            services.presenters.delivered(NotificationDelivered(uid: context.caller.uid, notification: delivered))
        }
        return outcome
    }
}
