/// `request-focus`: ask for the Focus status, and for the authorization to read it
/// (`INFocusStatusCenter`). With `subscribe`, the connection then receives `focus-changed`
/// whenever the app's authorization status or (while authorized) its Focus status changes.
package enum RequestFocusMethod: HeraldMethod {
    package static let name = "request-focus"
    package static let needsStore = false
    package static let access: MethodAccess = .app
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "8c4f6be1eca846229e816323b2b6b8b0", error: "0fd0a2c29e49419cbc354029948fb5ad")
    package typealias Params = RequestFocusParams
    package typealias Result = RequestFocusResult
}

package struct RequestFocusParams: Codable, Sendable, Hashable {
    package var app: String
    /// Apply the daemon's `--focus-authorization` policy if nobody has decided yet: under
    /// `prompt`, a request waits for the person's answer and presenters are told.
    package var requestAuthorization: Bool?
    /// Receive `focus-changed` notifications on this connection.
    package var subscribe: Bool?

    package init(app: String, requestAuthorization: Bool? = nil, subscribe: Bool? = nil) {
        self.app = app
        self.requestAuthorization = requestAuthorization
        self.subscribe = subscribe
    }
}

extension RequestFocusParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            RequestFocusParams(
                app: try members.required("app"),
                requestAuthorization: try members.optional("requestAuthorization"),
                subscribe: try members.optional("subscribe")
            )
        }
    }
}

package struct RequestFocusResult: Codable, Sendable, Hashable {
    package var authorizationStatus: AuthorizationStatus
    /// Null unless authorized.
    package var focusStatus: FocusStatus?

    package init(authorizationStatus: AuthorizationStatus, focusStatus: FocusStatus?) {
        self.authorizationStatus = authorizationStatus
        self.focusStatus = focusStatus
    }

    private enum CodingKeys: String, CodingKey {
        case authorizationStatus, focusStatus
    }

    /// Writes `focusStatus: null` rather than leaving it out.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(authorizationStatus, forKey: .authorizationStatus)
        if let focusStatus {
            try container.encode(focusStatus, forKey: .focusStatus)
        } else {
            try container.encodeNil(forKey: .focusStatus)
        }
    }
}

/// The params of the `focus-changed` notification sent to subscribed connections: sent
/// when the app's authorization status or its Focus status changes. `focusStatus` is null
/// unless the app is authorized.
package struct FocusChangedParams: Codable, Sendable, Hashable {
    package static let method = "focus-changed"
    package var app: String
    package var authorizationStatus: AuthorizationStatus
    package var focusStatus: FocusStatus?

    package init(app: String, authorizationStatus: AuthorizationStatus, focusStatus: FocusStatus?) {
        self.app = app
        self.authorizationStatus = authorizationStatus
        self.focusStatus = focusStatus
    }
}

/// Written directly: `request-focus` is the smallest request that reaches the state, and an
/// app may poll it (see `JSONDirectEncodable`). `focusStatus` is written as null when absent.
extension RequestFocusResult: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("authorizationStatus", authorizationStatus)
        if let focusStatus {
            members.add("focusStatus", focusStatus)
        } else {
            members.add("focusStatus", JSONValue.null)
        }
    }
}

extension FocusStatus: JSONDirectEncodable {
    package func addMembers(to members: inout JSONDirectMembers) {
        members.add("isFocused", isFocused)
    }
}
