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

    package static let deliveredMethod = "notification-delivered"
    package static let summaryMethod = "summary-delivered"
    package static let removedMethod = "notifications-removed"
    package static let authorizationRequestedMethod = "authorization-requested"
    package static let authorizationAnsweredMethod = "authorization-answered"

    /// The event a server notification carries, nil for another method (such as
    /// `focus-changed`), or a decoding error with the member at fault.
    ///
    /// A presenter reads leniently, as a client should: members a later heraldd adds are
    /// ignored. So it decodes with Foundation's `JSONDecoder`, not heraldd's strict params
    /// reader; a presenter reads a few events a second, not a request path's thousands.
    package init?(method: String, params: JSONValue) throws(RPCError) {
        switch method {
        case Self.deliveredMethod:
            let params = try Self.decode(DeliveredParams.self, from: params)
            self = .delivered(uid: params.uid, notification: params.notification)
        case Self.summaryMethod:
            let params = try Self.decode(SummaryParams.self, from: params)
            self = .summary(
                uid: params.uid, deliveredAt: params.deliveredAt, quiet: params.presentation == .quiet, notifications: params.notifications)
        case Self.removedMethod:
            let params = try Self.decode(RemovedParams.self, from: params)
            self = .removed(uid: params.uid, app: params.app, identifiers: params.identifiers)
        case Self.authorizationRequestedMethod:
            self = .authorizationRequested(try Self.decode(AuthorizationRequest.self, from: params))
        case Self.authorizationAnsweredMethod:
            let params = try Self.decode(AnsweredParams.self, from: params)
            self = .authorizationAnswered(uid: params.uid, app: params.app)
        default:
            return nil
        }
    }

    /// `params` (or a result, whose members' pointers then start at `root`) as `type`.
    static func decode<Params: Decodable>(_ type: Params.Type, from params: JSONValue, root: String = "/params") throws(RPCError) -> Params {
        var bytes: [UInt8] = []
        params.write(to: &bytes)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 date-time")
            }
            return date
        }
        do {
            return try decoder.decode(Params.self, from: Data(bytes))
        } catch let error as DecodingError {
            let path: [any CodingKey]
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                path = context.codingPath
            @unknown default:
                path = []
            }
            let pointer = root + path.map { "/" + ($0.intValue.map(String.init) ?? JSONPointer.escape($0.stringValue)) }.joined()
            throw .invalidParams("\(method(for: Params.self)) params are not what a presenter expects: \(error)", at: pointer)
        } catch {
            throw .invalidParams("The event's params could not be read: \(error)", at: root)
        }
    }

    private static func method(for type: Any.Type) -> String {
        switch type {
        case is DeliveredParams.Type: deliveredMethod
        case is SummaryParams.Type: summaryMethod
        case is RemovedParams.Type: removedMethod
        case is AuthorizationRequest.Type: authorizationRequestedMethod
        case is AnsweredParams.Type: authorizationAnsweredMethod
        default: "list-authorization-requests"
        }
    }

    private struct DeliveredParams: Decodable {
        var uid: UInt32
        var notification: PresentedNotification
    }

    private struct SummaryParams: Decodable {
        var uid: UInt32
        var deliveredAt: Date
        /// Absent from a heraldd older than the Focus-aware summary: an alert.
        var presentation: Presentation?
        var notifications: [PresentedNotification]
    }

    private struct RemovedParams: Decodable {
        var uid: UInt32
        var app: String
        var identifiers: [String]
    }

    /// Only whose request it was: the answer itself reaches the app, not the presenter.
    private struct AnsweredParams: Decodable {
        var uid: UInt32
        var app: String
    }
}
