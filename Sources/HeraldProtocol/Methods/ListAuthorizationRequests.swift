import FoundationEssentials

/// `list-authorization-requests`: the Focus authorization requests waiting for a person's
/// answer (`request-focus` with `requestAuthorization: true` under the `prompt` policy),
/// oldest first — what a desktop that starts late prompts for.
package enum ListAuthorizationRequestsMethod: HeraldMethod {
    package static let name = "list-authorization-requests"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "f105c470b9704381a695ced3c838e8bb", error: "dd264c1a7a654dc2b2923caf266c0f45")
    package typealias Params = ListAuthorizationRequestsParams
    package typealias Result = ListAuthorizationRequestsResult
}

package struct ListAuthorizationRequestsParams: Codable, Sendable, Hashable {
    /// Whose requests: a non-administrator's own only (its default); an administrator's
    /// any, or every uid's without it.
    package var uid: UInt32?

    package init(uid: UInt32? = nil) {
        self.uid = uid
    }
}

extension ListAuthorizationRequestsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            ListAuthorizationRequestsParams(uid: try members.optional("uid"))
        }
    }
}

package struct ListAuthorizationRequestsResult: Codable, Sendable, Hashable {
    /// Oldest first.
    package var requests: [AuthorizationRequested]

    package init(requests: [AuthorizationRequested]) {
        self.requests = requests
    }
}
