/// `set-capabilities`: grant or withdraw a (uid, app)'s communication, timeSensitive and
/// critical capabilities — the entitlements of the seeds. communication and timeSensitive
/// are the uid's own switches (any caller for its own uid, an administrator for any);
/// critical is an administrator's grant, as the platform's entitlement is.
package enum SetCapabilitiesMethod: HeraldMethod {
    package static let name = "set-capabilities"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "386d30862687470c91b56d36d7415fd0", error: "ddf10de9725942caa9c607686ed4f824")
    package typealias Params = SetCapabilitiesParams
    package typealias Result = SetCapabilitiesResult
}

/// An absent capability keeps its current value (at first: communication and
/// timeSensitive on, critical off).
package struct SetCapabilitiesParams: Codable, Sendable, Hashable {
    package var app: String
    /// The caller's uid when absent; only administrators may name another.
    package var uid: UInt32?
    package var communication: Bool?
    package var timeSensitive: Bool?
    /// Administrators only.
    package var critical: Bool?

    package init(
        app: String,
        uid: UInt32? = nil,
        communication: Bool? = nil,
        timeSensitive: Bool? = nil,
        critical: Bool? = nil
    ) {
        self.app = app
        self.uid = uid
        self.communication = communication
        self.timeSensitive = timeSensitive
        self.critical = critical
    }
}

extension SetCapabilitiesParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetCapabilitiesParams(
                app: try members.required("app"),
                uid: try members.optional("uid"),
                communication: try members.optional("communication"),
                timeSensitive: try members.optional("timeSensitive"),
                critical: try members.optional("critical")
            )
        }
    }
}

/// The capabilities now in effect for the (uid, app).
package struct SetCapabilitiesResult: Codable, Sendable, Hashable {
    package var app: String
    package var uid: UInt32
    package var communication: Bool
    package var timeSensitive: Bool
    package var critical: Bool

    package init(app: String, uid: UInt32, capabilities: Capabilities) {
        self.app = app
        self.uid = uid
        self.communication = capabilities.communication
        self.timeSensitive = capabilities.timeSensitive
        self.critical = capabilities.critical
    }

    package var capabilities: Capabilities {
        Capabilities(communication: communication, timeSensitive: timeSensitive, critical: critical)
    }
}
