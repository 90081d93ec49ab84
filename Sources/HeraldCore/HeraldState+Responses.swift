import FoundationEssentials
import HeraldProtocol

extension HeraldState {
    /// `respond-to-notification`: a person acted on a notification. The response is checked
    /// against the notification's category, the notification leaves the list, and the
    /// response goes to the app — now, when `appListening(uid, app)` says a connection of
    /// that (uid, app) is subscribed, else it waits (``PendingResponses``).
    ///
    /// The notification is looked up in the caller's own list (an administrator's: `uid`'s),
    /// so another uid's notification is not found, exactly as one never posted: a response
    /// never reveals what another uid has.
    ///
    /// Errors, in the order checked: invalid params (app, identifier); permission denied
    /// for another `uid` without being an administrator; notification not found; invalid
    /// params at `actionIdentifier` for an action not its category's (`dismiss` without
    /// `customDismissAction`); invalid params at `userText`, required for a text-input
    /// action and refused for any other.
    package mutating func respondToNotification(
        _ p: RespondToNotificationParams, caller: Caller, now: Date, appListening: (UInt32, String) -> Bool
    ) throws(RuleError) -> RespondedNotification {
        try AppName.validate(p.app)
        _ = try NotificationIdentifier.validated(p.identifier)
        let uid = try Self.ownerUID(p.uid, caller: caller) ?? caller.uid
        guard let stored = notifications.notification(uid: uid, app: p.app, identifier: p.identifier) else {
            throw RuleError(
                .notificationNotFound,
                "\(p.app) has no notification \(p.identifier) in this uid's list: it was never posted, or it was answered, removed, evicted or forgotten.",
                at: ["identifier"]
            )
        }
        let notification = presented(stored, uid: uid)
        let action = try Self.respondedAction(p, to: notification)
        switch (action?.textInput, p.userText) {
        case (_?, nil):
            throw .invalidParams("Action \(p.actionIdentifier) takes text input: give what the person typed as userText.", at: ["userText"])
        case (nil, _?):
            throw .invalidParams("Only a text-input action carries userText; \(p.actionIdentifier) is not one.", at: ["userText"])
        default:
            break
        }
        let response = NotificationResponse(
            app: p.app, identifier: p.identifier, actionIdentifier: p.actionIdentifier, userText: p.userText,
            notification: notification, respondedAt: now
        )
        let removed = notifications.remove(uid: uid, app: p.app, identifiers: [p.identifier])
        let handoff: ResponseHandoff
        if appListening(uid, p.app) {
            handoff = .delivered
        } else {
            pendingResponses.append(response, uid: uid, maxApps: configuration.maxAppsPerUID)
            handoff = .pending
        }
        var audit = AuditRecord(app: p.app, notificationIdentifier: p.identifier)
        audit.notificationIdentifiers = removed.flatMap(\.identifiers)
        let result = RespondToNotificationResult(app: p.app, identifier: p.identifier, actionIdentifier: p.actionIdentifier, response: handoff)
        return RespondedNotification(
            outcome: MethodOutcome(result: result, audit: audit), uid: uid, response: response,
            removed: NotificationsRemoved(uid: uid, app: p.app, identifiers: [p.identifier])
        )
    }

    /// The category's action `p` answers with; nil for `default` and `dismiss`.
    private static func respondedAction(_ p: RespondToNotificationParams, to notification: HeraldNotification) throws(RuleError)
        -> NotificationAction?
    {
        switch p.actionIdentifier {
        case NotificationAction.defaultIdentifier:
            return nil
        case NotificationAction.dismissIdentifier:
            guard notification.categoryOptions?.contains(.customDismissAction) == true else {
                throw .invalidParams(
                    "dismiss answers only a notification whose category has the customDismissAction option; this one's has not.",
                    at: ["actionIdentifier"]
                )
            }
            return nil
        default:
            guard let action = notification.actions?.first(where: { $0.identifier == p.actionIdentifier }) else {
                let known = ([NotificationAction.defaultIdentifier] + (notification.actions ?? []).map(\.identifier)).joined(separator: ", ")
                throw .invalidParams(
                    "\(p.actionIdentifier) is not an action of this notification's category; it has: \(known).",
                    at: ["actionIdentifier"]
                )
            }
            return action
        }
    }

    /// `subscribe-responses`: takes the caller's (uid, app)'s waiting responses, oldest first,
    /// and how many were dropped meanwhile, for the server to send after the result. The
    /// server registers the connection under the same lock, so that no response made
    /// meanwhile is lost or sent twice.
    ///
    /// With `observe` it takes nothing: the watcher (a person's `heraldctl watch`) hears
    /// each response as it is made, and the waiting ones stay the app's (`waiting` says how
    /// many), as taking stays the app's.
    package mutating func subscribeResponses(_ p: SubscribeResponsesParams, caller: Caller) throws(RuleError)
        -> (outcome: MethodOutcome<SubscribeResponsesResult>, pending: [NotificationResponse])
    {
        try AppName.validate(p.app)
        if p.observe {
            let waiting = pendingResponses.waiting(uid: caller.uid, app: p.app)
            let result = SubscribeResponsesResult(app: p.app, pending: 0, dropped: 0, waiting: waiting)
            return (MethodOutcome(result: result, audit: AuditRecord(app: p.app)), [])
        }
        let queue = pendingResponses.take(uid: caller.uid, app: p.app)
        let result = SubscribeResponsesResult(app: p.app, pending: queue.responses.count, dropped: queue.dropped)
        return (MethodOutcome(result: result, audit: AuditRecord(app: p.app)), queue.responses)
    }

    /// Keeps a response no connection took after all — each one listening closed before it
    /// was written — waiting for the app's next `subscribe-responses`, as if none had listened.
    package mutating func keepUndeliveredResponse(_ response: NotificationResponse, uid: UInt32) {
        pendingResponses.append(response, uid: uid, maxApps: configuration.maxAppsPerUID)
    }

    /// How many responses wait for one (uid, app) at most.
    package static let maxPendingResponsesPerApp = PendingResponses.maxPerApp

    /// How many responses wait for their apps, every uid's together.
    package var pendingResponseCount: Int { pendingResponses.count }

    /// Responses dropped at 100 per (uid, app), and for a uid past `maxAppsPerUID` apps,
    /// since this value was made.
    package var pendingResponsesDropped: (atAppLimit: Int, forAppsPerUID: Int) {
        (pendingResponses.droppedAtLimit, pendingResponses.refusedForAppLimit)
    }

    /// Every (uid, app)'s waiting responses, for a snapshot.
    package var storedPendingResponses: [StoredResponses] {
        pendingResponses.sorted.map { StoredResponses(uid: $0.uid, app: $0.app, responses: $0.queue.responses, dropped: $0.queue.dropped) }
    }

    /// Restores the waiting responses of a snapshot; false when a (uid, app) comes twice,
    /// holds more than 100, or holds another app's response.
    package mutating func restorePendingResponses(_ stored: [StoredResponses]) -> Bool {
        for entry in stored {
            guard AppName.isValid(entry.app), entry.responses.count <= PendingResponses.maxPerApp, entry.dropped >= 0,
                entry.responses.allSatisfy({ $0.app == entry.app }),
                pendingResponses.restore(PendingResponses.Queue(responses: entry.responses, dropped: entry.dropped), uid: entry.uid, app: entry.app)
            else { return false }
        }
        return true
    }

    /// One (uid, app)'s waiting responses, as a snapshot keeps them.
    package struct StoredResponses: Sendable {
        package var uid: UInt32
        package var app: String
        package var responses: [NotificationResponse]
        package var dropped: Int

        package init(uid: UInt32, app: String, responses: [NotificationResponse], dropped: Int) {
            self.uid = uid
            self.app = app
            self.responses = responses
            self.dropped = dropped
        }
    }
}

/// What `respond-to-notification` did, for the server to finish after the state's lock:
/// tell the app (when it was listening), the presenters (the notification removed) and
/// the journal.
package struct RespondedNotification: Sendable {
    package var outcome: MethodOutcome<RespondToNotificationResult>
    /// The notification's uid.
    package var uid: UInt32
    package var response: NotificationResponse
    package var removed: NotificationsRemoved
}
