import FoundationEssentials

/// `get-app-settings`: a (uid, app)'s Focus authorization, its capabilities, and the
/// authorization request waiting for an answer, if any — what `set-focus-authorization`
/// and `set-capabilities` decide, read back.
package enum GetAppSettingsMethod: HeraldMethod {
    package static let name = "get-app-settings"
    package static let needsStore = false
    package static let access: MethodAccess = .app
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "9f5790b4f6eb4eac9d58c27b4015170e", error: "b122c313a4a840339240532906bbbf06")
    package typealias Params = GetAppSettingsParams
    package typealias Result = GetAppSettingsResult
}

package struct GetAppSettingsParams: Codable, Sendable, Hashable {
    package var app: String
    /// The caller's uid when absent; only administrators may name another.
    package var uid: UInt32?

    package init(app: String, uid: UInt32? = nil) {
        self.app = app
        self.uid = uid
    }
}

extension GetAppSettingsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            GetAppSettingsParams(app: try members.required("app"), uid: try members.optional("uid"))
        }
    }
}

/// The settings in effect: the defaults (`notDetermined`; communication and timeSensitive
/// on, critical off) for an app nobody decided about.
package struct GetAppSettingsResult: Codable, Sendable, Hashable {
    package var app: String
    package var uid: UInt32
    package var authorizationStatus: AuthorizationStatus
    package var communication: Bool
    package var timeSensitive: Bool
    package var critical: Bool
    /// When the app asked for Focus authorization, while its request waits for an answer.
    package var authorizationRequestedAt: Date?

    package init(app: String, uid: UInt32, authorizationStatus: AuthorizationStatus, capabilities: Capabilities, authorizationRequestedAt: Date?) {
        self.app = app
        self.uid = uid
        self.authorizationStatus = authorizationStatus
        self.communication = capabilities.communication
        self.timeSensitive = capabilities.timeSensitive
        self.critical = capabilities.critical
        self.authorizationRequestedAt = authorizationRequestedAt
    }

    package var capabilities: Capabilities {
        Capabilities(communication: communication, timeSensitive: timeSensitive, critical: critical)
    }
}
