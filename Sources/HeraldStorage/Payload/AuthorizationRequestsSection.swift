import Foundation
import HeraldCore

/// The Focus authorization requests waiting for a person's answer, so that a prompt made
/// before a restart can still be answered after it.
enum AuthorizationRequestsSection: JSONSnapshotSection {
    static let name = "authorizationRequests"
    static let since: UInt32 = 4

    struct Request: Codable {
        var uid: UInt32
        var app: String
        var requestedAt: Date
    }

    static func form(of state: HeraldState) -> [Request] {
        state.storedAuthorizationRequests.map { Request(uid: $0.uid, app: $0.app, requestedAt: $0.requestedAt) }
    }

    static func restore(_ form: [Request], into state: inout HeraldState) throws(SnapshotFileError) {
        let requests = form.map { HeraldState.StoredAuthorizationRequest(uid: $0.uid, app: $0.app, requestedAt: $0.requestedAt) }
        guard state.restoreAuthorizationRequests(requests) else {
            throw damaged("has a request of a (uid, app) twice, or of an app whose authorization is decided.")
        }
    }
}
