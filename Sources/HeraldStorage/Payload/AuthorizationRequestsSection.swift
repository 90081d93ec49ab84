import HeraldCore
import HeraldProtocol

/// The Focus authorization requests waiting for a person's answer, so that a prompt made
/// before a restart can still be answered after it: an array of `{app, requestedAt, uid}`.
enum AuthorizationRequestsSection: JSONSnapshotSection {
    static let name = "authorizationRequests"
    static let since: UInt32 = 4

    static func json(of state: HeraldState, _ style: RecordStyle) -> JSONValue {
        .array(
            state.storedAuthorizationRequests.map { request in
                var members = RecordMembers(style, capacity: 3)
                members.add("app", request.app)
                members.add("requestedAt", request.requestedAt)
                members.add("uid", request.uid)
                return members.value
            }
        )
    }

    static func restore(_ json: JSONValue, into state: inout HeraldState) throws(SnapshotFileError) {
        let requests = try reading { () throws(RecordDamage) in
            try RecordReader.records(in: json) { request throws(RecordDamage) in
                HeraldState.StoredAuthorizationRequest(uid: try request.integer("uid"), app: try request.string("app"), requestedAt: try request.date("requestedAt"))
            }
        }
        guard state.restoreAuthorizationRequests(requests) else {
            throw damaged("has a request of a (uid, app) twice, or of an app whose authorization is decided.")
        }
    }
}
