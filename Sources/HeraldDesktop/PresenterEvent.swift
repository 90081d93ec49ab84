import Foundation
import HeraldProtocol

/// What heraldd tells a presenter (a connection that called `subscribe-notifications`),
/// one JSON-RPC notification per line.
package enum PresenterEvent: Sendable, Hashable {
    /// `notification-delivered` `{uid, notification}`: an alert or quiet notification, as decided.
    case delivered(uid: UInt32, notification: PresentedNotification)
    /// `summary-delivered` `{uid, deliveredAt, presentation, notifications}`, ranked; `quiet`
    /// when it was delivered while a Focus was on (no sound, no banner).
    case summary(uid: UInt32, deliveredAt: Date, quiet: Bool, notifications: [PresentedNotification])
    /// `notifications-removed` `{uid, app, identifiers}`.
    case removed(uid: UInt32, app: String, identifiers: [String])
    /// `authorization-requested` `{uid, app, requestedAt}`: an app asks to share the person's
    /// Focus status, and waits for their own `set-focus-authorization`.
    case authorizationRequested(AuthorizationRequest)
    /// `authorization-answered` `{uid, app, authorizationStatus, …}`: the request was decided
    /// (here, on another desktop, by an administrator or by the policy).
    case authorizationAnswered(uid: UInt32, app: String)
    /// `focus-digest` `{uid, focus, total, entries, …}`: a Focus ended, and this is what it
    /// silenced, most relevant first.
    case focusDigest(FocusDigest)
    /// `events-skipped` `{skipped, alerts}`: a burst brought more than this presenter took in
    /// time, and `count` events of it were not sent, `alerts` of them alerts (nil from a
    /// heraldd that does not count them); what they told is in the lists.
    case eventsSkipped(count: Int, alerts: Int?)

    package static let deliveredMethod = "notification-delivered"
    package static let summaryMethod = "summary-delivered"
    package static let removedMethod = "notifications-removed"
    package static let authorizationRequestedMethod = "authorization-requested"
    package static let authorizationAnsweredMethod = "authorization-answered"
    package static let focusDigestMethod = FocusDigest.method
    package static let eventsSkippedMethod = EventsSkipped.method

    /// The event a server notification carries, nil for another method (such as
    /// `focus-changed`), or a reading error with the member at fault.
    ///
    /// A presenter reads leniently, as a client should: members a later heraldd adds are
    /// ignored (``EventReader``), where heraldd's own params reader refuses them.
    package init?(method: String, params: JSONValue) throws(RPCError) {
        let root = "/params"
        switch method {
        case Self.deliveredMethod:
            let params = try EventReader(params, at: root)
            self = .delivered(uid: try params.integer("uid"), notification: try params.record("notification", PresentedNotification.init(reading:)))
        case Self.summaryMethod:
            let params = try EventReader(params, at: root)
            self = .summary(
                uid: try params.integer("uid"),
                deliveredAt: try params.date("deliveredAt"),
                // Absent from a heraldd older than the Focus-aware summary: an alert.
                quiet: try params.optionalCase("presentation", as: Presentation.self) == .quiet,
                notifications: try params.records("notifications", PresentedNotification.init(reading:))
            )
        case Self.removedMethod:
            let params = try EventReader(params, at: root)
            self = .removed(uid: try params.integer("uid"), app: try params.string("app"), identifiers: try params.strings("identifiers"))
        case Self.authorizationRequestedMethod:
            self = .authorizationRequested(try AuthorizationRequest(reading: try EventReader(params, at: root)))
        case Self.authorizationAnsweredMethod:
            // Only whose request it was: the answer itself reaches the app, not the presenter.
            let params = try EventReader(params, at: root)
            self = .authorizationAnswered(uid: try params.integer("uid"), app: try params.string("app"))
        case Self.focusDigestMethod:
            self = .focusDigest(try FocusDigest(reading: try EventReader(params, at: root)))
        case Self.eventsSkippedMethod:
            let params = try EventReader(params, at: root)
            self = .eventsSkipped(count: try params.integer("skipped"), alerts: try params.optionalInteger("alerts"))
        default:
            return nil
        }
    }
}
