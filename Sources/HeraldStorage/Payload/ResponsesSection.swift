import HeraldCore
import HeraldProtocol

/// The responses waiting for their apps' next `subscribe-responses`, by (uid, app), oldest
/// first, with how many were dropped meanwhile: a response survives a restart as the
/// notification it answered would have. A snapshot of an earlier format has none.
enum ResponsesSection: JSONSnapshotSection {
    static let name = "responses"
    static let since: UInt32 = 4

    struct Form: Codable {
        struct Entry: Codable {
            var uid: UInt32
            var app: String
            var dropped: Int
            var responses: [NotificationResponse]
        }

        var pending: [Entry]
    }

    static func form(of state: HeraldState) -> Form {
        Form(pending: state.storedPendingResponses.map { Form.Entry(uid: $0.uid, app: $0.app, dropped: $0.dropped, responses: $0.responses) })
    }

    static func restore(_ form: Form, into state: inout HeraldState) throws(SnapshotFileError) {
        let stored = form.pending.map { HeraldState.StoredResponses(uid: $0.uid, app: $0.app, responses: $0.responses, dropped: $0.dropped) }
        guard state.restorePendingResponses(stored) else {
            throw damaged("lists a (uid, app) twice, more than 100 responses for one, or a response of another app.")
        }
    }
}
