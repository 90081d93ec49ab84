/// `set-capabilities` (administrators): grant or withdraw a (uid, app)'s communication,
/// timeSensitive and critical capabilities — the entitlements of the seeds.
public enum SetCapabilitiesMethod: HeraldMethod {
    public static let name = "set-capabilities"
    public static let requiresAdministrator = true
    public static let journalMessageIDs = JournalMessageIDs(ok: "386d30862687470c91b56d36d7415fd0", error: "ddf10de9725942caa9c607686ed4f824")
    public typealias Params = SetCapabilitiesParams
    public typealias Result = SetCapabilitiesResult
}

/// An absent capability keeps its current value (at first: communication and
/// timeSensitive on, critical off).
public struct SetCapabilitiesParams: Codable, Sendable, Hashable {
    public var app: String
    /// The caller's uid when absent.
    public var uid: UInt32?
    public var communication: Bool?
    public var timeSensitive: Bool?
    public var critical: Bool?

    public init(
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
    public init(reading value: ParamsReader) throws(RPCError) {
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
public struct SetCapabilitiesResult: Codable, Sendable, Hashable {
    public var app: String
    public var uid: UInt32
    public var communication: Bool
    public var timeSensitive: Bool
    public var critical: Bool

    public init(app: String, uid: UInt32, capabilities: Capabilities) {
        self.app = app
        self.uid = uid
        self.communication = capabilities.communication
        self.timeSensitive = capabilities.timeSensitive
        self.critical = capabilities.critical
    }

    public var capabilities: Capabilities {
        Capabilities(communication: communication, timeSensitive: timeSensitive, critical: critical)
    }
}
