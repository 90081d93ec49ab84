/// `set-focus-authorization` (administrators): decide whether a (uid, app) may read the
/// Focus status — the answer to the prompt of the `prompt` policy.
public enum SetFocusAuthorizationMethod: HeraldMethod {
    public static let name = "set-focus-authorization"
    public static let requiresAdministrator = true
    public static let journalMessageIDs = JournalMessageIDs(ok: "03d3884674f04d4aabfd15a47e6907cb", error: "08d029798d9249e19fe8923a9dcdf565")
    public typealias Params = SetFocusAuthorizationParams
    public typealias Result = SetFocusAuthorizationResult
}

public struct SetFocusAuthorizationParams: Codable, Sendable, Hashable {
    public var app: String
    /// The caller's uid when absent.
    public var uid: UInt32?
    public var status: AuthorizationStatus

    public init(app: String, uid: UInt32? = nil, status: AuthorizationStatus) {
        self.app = app
        self.uid = uid
        self.status = status
    }
}

extension SetFocusAuthorizationParams: ParamsReadable {
    public init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetFocusAuthorizationParams(
                app: try members.required("app"),
                uid: try members.optional("uid"),
                status: try members.required("status")
            )
        }
    }
}

public struct SetFocusAuthorizationResult: Codable, Sendable, Hashable {
    public var app: String
    public var uid: UInt32
    public var status: AuthorizationStatus

    public init(app: String, uid: UInt32, status: AuthorizationStatus) {
        self.app = app
        self.uid = uid
        self.status = status
    }
}
