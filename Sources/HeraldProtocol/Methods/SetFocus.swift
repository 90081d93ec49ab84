import FoundationEssentials

/// `set-focus`: turn one of the caller's Focuses on by hand — defining or changing it
/// (`focus`, a partial update: what it leaves out is kept), or naming one defined already
/// (`name`) — or every Focus off with `focus: null`. Turning on a Focus that is not on starts a
/// new activation; the choice overrides the uid's Focus holds (`hold-focus`). An administrator
/// may name another `uid`. herald-sync names the host a choice was made on (`origin`).
package enum SetFocusMethod: HeraldMethod {
    package static let name = "set-focus"
    package static let needsStore = false
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "3720377470f441fa934dfd9467e2b44a", error: "0585a11238234cadbb817bea3f306a23")
    package typealias Params = SetFocusParams
    package typealias Result = SetFocusResult
}

package struct SetFocusParams: Codable, Sendable, Hashable {
    /// The Focus to define (or change) and turn on, or null to turn the Focus off.
    package var focus: FocusUpdate?
    /// A Focus defined already, to turn on as it is defined (instead of `focus`).
    package var name: String?
    /// With `name`: when it ends by itself.
    package var until: Date?
    /// Administrators only: another uid's Focus.
    package var uid: UInt32?
    /// The choice was made on another of the person's hosts: which, and why the Focus was
    /// on there. Taken from whoever may call `set-focus` (the person, not a verified app).
    package var origin: FocusOrigin?

    package init(focus: FocusUpdate?, name: String? = nil, until: Date? = nil, uid: UInt32? = nil, origin: FocusOrigin? = nil) {
        self.focus = focus
        self.name = name
        self.until = until
        self.uid = uid
        self.origin = origin
    }

    /// Every setting of `focus` given: the whole Focus replaced.
    package init(focus: FocusConfiguration, name: String? = nil, until: Date? = nil, uid: UInt32? = nil, origin: FocusOrigin? = nil) {
        self.init(focus: FocusUpdate(focus), name: name, until: until, uid: uid, origin: origin)
    }
}

extension SetFocusParams: ParamsReadable {
    /// An absent `focus` (without `name`) is null: the Focus goes off.
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetFocusParams(
                focus: try members.optional("focus"),
                name: try members.optional("name"),
                until: try members.optional("until"),
                uid: try members.optional("uid"),
                origin: try members.optional("origin")
            )
        }
    }
}

/// The Focus now in effect, its defaults filled in; `focus: null` when none is on.
package struct SetFocusResult: Codable, Sendable, Hashable {
    package var focus: FocusConfiguration?

    package init(focus: FocusConfiguration?) {
        self.focus = focus
    }

    private enum CodingKeys: String, CodingKey {
        case focus
    }

    /// Writes `focus: null` rather than leaving it out.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let focus {
            try container.encode(focus, forKey: .focus)
        } else {
            try container.encodeNil(forKey: .focus)
        }
    }
}
