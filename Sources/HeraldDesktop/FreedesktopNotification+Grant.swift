import Foundation
import HeraldProtocol

/// An app's notification shown under a standing grant (``StandingGrant``): the gateway
/// makes the notification heraldd's decision would make, before heraldd has seen it.
extension FreedesktopNotification {
    /// Whether it is of the plain kind a standing grant covers: urgency normal, no message
    /// or call category (no interaction rules apply), no actions (no category), replacing
    /// nothing. Low and critical urgency, and the rest, go through heraldd first.
    package var isPlain: Bool {
        replacesID == 0 && kind == .other && urgency == 1 && actions.isEmpty
    }

    /// The notification as heraldd delivers an alert of it — its content as
    /// `update-content` sends it, with sound or cooled down (`sound`) — for the presenter
    /// to show.
    package func granted(app: String, identifier: String, sound: Bool, at now: Date) throws(RPCError) -> PresentedNotification {
        let content = try NotificationContent(presented: EventReader(.object(content), at: "/content"))
        let delivery = Delivery(
            presentation: .alert, sound: sound, lightsScreen: true,
            reasons: [DeliveryReason(code: .delivered, message: "Delivered as an alert under the gateway's standing grant.")]
        )
        return PresentedNotification(
            identifier: identifier, app: app, content: content, delivery: delivery, receivedAt: now, deliveredAt: now)
    }
}
