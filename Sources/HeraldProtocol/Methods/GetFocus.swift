import FoundationEssentials

/// `get-focus`: the caller's Focus definitions, which one is on and why, and when that
/// changes next. An administrator may name another `uid`.
package enum GetFocusMethod: HeraldMethod {
    package static let name = "get-focus"
    package static let needsStore = false
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "0f9c4d2a6e1b47b8953a7c0e8d2f1b64", error: "b85e3c71a0d94f2e8c6b1d4a7e9f0352")
    package typealias Params = GetFocusParams
    package typealias Result = GetFocusResult
}

/// `get-focus`'s params: `uid`, for administrators another uid's; `cursor`, the
/// `nextCursor` of the page before; `subscribe`, to hear `active-focus-changed`.
package struct GetFocusParams: Codable, Sendable, Hashable {
    package var uid: UInt32?
    /// The page starts with the Focuses named after it (in name order).
    package var cursor: String?
    /// The connection then receives `active-focus-changed` at each change of the uid's
    /// Focus in effect, one Focus to another included (herald-sync's way to follow it).
    package var subscribe: Bool?

    package init(uid: UInt32? = nil, cursor: String? = nil, subscribe: Bool? = nil) {
        self.uid = uid
        self.cursor = cursor
        self.subscribe = subscribe
    }
}

extension GetFocusParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            GetFocusParams(uid: try members.optional("uid"), cursor: try members.optional("cursor"), subscribe: try members.optional("subscribe"))
        }
    }
}

/// The params of `active-focus-changed`, sent to connections that asked `get-focus` to
/// `subscribe`: whose Focus changed, and the Focus on now (null: none).
package enum ActiveFocusChangedNotification {
    package static let method = "active-focus-changed"
}

/// The params of `focus-defined`, sent to the same connections: one of the uid's
/// definitions made, replaced or deleted (`define-focus`, `set-focus` with `focus`,
/// `delete-focus`) — its name, and the definition now (null: deleted).
package enum FocusDefinedNotification {
    package static let method = "focus-defined"
}

/// Params of a read-back: `uid`, for administrators, another uid's.
package struct UIDParams: Codable, Sendable, Hashable {
    package var uid: UInt32?

    package init(uid: UInt32? = nil) {
        self.uid = uid
    }
}

extension UIDParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            UIDParams(uid: try members.optional("uid"))
        }
    }
}

/// Why a Focus is on.
package enum FocusReason: String, JSONEnum, Hashable {
    /// Turned on by hand without `until`: on until turned off, or until the next start or
    /// end of one of the uid's schedules.
    case manual
    /// Turned on by hand with `until`: on until then.
    case until
    /// One of its schedules: on until the schedule's end (`endsAt`).
    case schedule
    /// A hold (`hold-focus`): on until the last hold of it ends (`get-focus`'s `holds`).
    case held
}

/// The Focus in effect for a uid.
package struct ActiveFocus: Codable, Sendable, Hashable {
    package var name: String
    package var reason: FocusReason
    /// When it ends by itself; absent when nothing ends it but a person.
    package var endsAt: Date?

    package init(name: String, reason: FocusReason, endsAt: Date?) {
        self.name = name
        self.reason = reason
        self.endsAt = endsAt
    }
}

/// A choice made by hand that holds over the schedules: the Focus they would have on now.
package struct FocusOverride: Codable, Sendable, Hashable {
    /// The Focus the schedules would have on now, were it not for the choice by hand.
    package var scheduledFocus: String
    /// When the schedules decide again (the choice's `until`, else the schedules' next
    /// start or end); absent when only a person ends it.
    package var endsAt: Date?

    package init(scheduledFocus: String, endsAt: Date?) {
        self.scheduledFocus = scheduledFocus
        self.endsAt = endsAt
    }
}

package struct GetFocusResult: Codable, Sendable, Hashable {
    package var uid: UInt32
    /// Sorted by name, one page within `--max-response-bytes`; `until` never set (it
    /// belongs to an activation).
    package var focuses: [FocusConfiguration]
    /// The Focus on now; null when none is.
    package var active: ActiveFocus?
    /// When the Focus changes next by itself (an `until`, a schedule's start or end); absent when never.
    package var nextChange: Date?
    /// Present while a choice made by hand (on or off) overrides a schedule that is open now.
    package var override: FocusOverride?
    /// Present when more Focuses are left than this page holds: the `cursor` of the next.
    package var nextCursor: String?
    /// Present while the uid has holds (`hold-focus`), oldest first: the last one not
    /// `overridden` decides the Focus in effect.
    package var holds: [FocusHoldInfo]?
    /// Present while a choice made by hand on another of the person's hosts decides the
    /// Focus here (`set-focus`'s `origin`, given by herald-sync): `active` on by hand, or
    /// none on because it was turned off there.
    package var origin: FocusOrigin?

    package init(
        uid: UInt32, focuses: [FocusConfiguration], active: ActiveFocus?, nextChange: Date?, override: FocusOverride? = nil,
        nextCursor: String? = nil, holds: [FocusHoldInfo]? = nil, origin: FocusOrigin? = nil
    ) {
        self.uid = uid
        self.focuses = focuses
        self.active = active
        self.nextChange = nextChange
        self.override = override
        self.nextCursor = nextCursor
        self.holds = holds
        self.origin = origin
    }

    private enum CodingKeys: String, CodingKey {
        case uid, focuses, active, nextChange, override, nextCursor, holds, origin
    }

    /// Writes `active: null` rather than leaving it out.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uid, forKey: .uid)
        try container.encode(focuses, forKey: .focuses)
        if let active {
            try container.encode(active, forKey: .active)
        } else {
            try container.encodeNil(forKey: .active)
        }
        try container.encodeIfPresent(nextChange, forKey: .nextChange)
        try container.encodeIfPresent(override, forKey: .override)
        try container.encodeIfPresent(nextCursor, forKey: .nextCursor)
        try container.encodeIfPresent(holds, forKey: .holds)
        try container.encodeIfPresent(origin, forKey: .origin)
    }
}
