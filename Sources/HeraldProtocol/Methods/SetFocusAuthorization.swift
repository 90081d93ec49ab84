/// `set-focus-authorization`: decide whether a (uid, app) may read the Focus status — the
/// person's answer to the prompt of the `prompt` policy. The uid's own decision: any caller
/// for its own uid, an administrator for any; `restricted` is an administrator's.
package enum SetFocusAuthorizationMethod: HeraldMethod {
    package static let name = "set-focus-authorization"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "03d3884674f04d4aabfd15a47e6907cb", error: "08d029798d9249e19fe8923a9dcdf565")
    package typealias Params = SetFocusAuthorizationParams
    package typealias Result = SetFocusAuthorizationResult
}

package struct SetFocusAuthorizationParams: Codable, Sendable, Hashable {
    package var app: String
    /// The caller's uid when absent; only administrators may name another.
    package var uid: UInt32?
    package var status: AuthorizationStatus

    package init(app: String, uid: UInt32? = nil, status: AuthorizationStatus) {
        self.app = app
        self.uid = uid
        self.status = status
    }
}

extension SetFocusAuthorizationParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetFocusAuthorizationParams(
                app: try members.required("app"),
                uid: try members.optional("uid"),
                status: try members.required("status")
            )
        }
    }
}

package struct SetFocusAuthorizationResult: Codable, Sendable, Hashable {
    package var app: String
    package var uid: UInt32
    package var status: AuthorizationStatus

    package init(app: String, uid: UInt32, status: AuthorizationStatus) {
        self.app = app
        self.uid = uid
        self.status = status
    }
}
