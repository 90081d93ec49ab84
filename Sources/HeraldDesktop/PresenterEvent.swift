import Foundation
import HeraldProtocol

/// What heraldd tells a presenter (a connection that called `subscribe-notifications`),
/// one JSON-RPC notification per line.
public enum PresenterEvent: Sendable, Hashable {
    /// `notification-delivered` `{uid, notification}`: an alert or quiet notification, as decided.
    case delivered(uid: UInt32, notification: PresentedNotification)
    /// `summary-delivered` `{uid, deliveredAt, notifications}`, ranked.
    case summary(uid: UInt32, deliveredAt: Date, notifications: [PresentedNotification])
    /// `notifications-removed` `{uid, app, identifiers}`.
    case removed(uid: UInt32, app: String, identifiers: [String])

    public static let deliveredMethod = "notification-delivered"
    public static let summaryMethod = "summary-delivered"
    public static let removedMethod = "notifications-removed"

    /// The event a server notification carries, nil for another method (such as
    /// `focus-changed`), or a decoding error with the member at fault.
    public init?(method: String, params: JSONValue) throws(RPCError) {
        let decoder = JSONValueDecoder()
        switch method {
        case Self.deliveredMethod:
            let params = try decoder.decode(DeliveredParams.self, from: params, pointerPrefix: "/params")
            self = .delivered(uid: params.uid, notification: params.notification)
        case Self.summaryMethod:
            let params = try decoder.decode(SummaryParams.self, from: params, pointerPrefix: "/params")
            self = .summary(uid: params.uid, deliveredAt: params.deliveredAt, notifications: params.notifications)
        case Self.removedMethod:
            let params = try decoder.decode(RemovedParams.self, from: params, pointerPrefix: "/params")
            self = .removed(uid: params.uid, app: params.app, identifiers: params.identifiers)
        default:
            return nil
        }
    }

    private struct DeliveredParams: Decodable {
        var uid: UInt32
        var notification: PresentedNotification
    }

    private struct SummaryParams: Decodable {
        var uid: UInt32
        var deliveredAt: Date
        var notifications: [PresentedNotification]
    }

    private struct RemovedParams: Decodable {
        var uid: UInt32
        var app: String
        var identifiers: [String]
    }
}
