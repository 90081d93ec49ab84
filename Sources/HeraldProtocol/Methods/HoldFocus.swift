import FoundationEssentials

/// `hold-focus`: keeps one of the caller's defined Focuses on for as long as the
/// connection the request came on stays open — `systemd-inhibit` for a Focus. Holds stack:
/// the most recent hold still standing decides, and when the last ends the Focus ends as
/// `set-focus` with `focus: null` would end it (one digest), and what was on before the
/// holds comes back. A choice made by hand afterwards wins; the holds it overrides stay
/// listed (`get-focus`'s `holds`, `overridden`) until their connections close.
package enum HoldFocusMethod: HeraldMethod {
    package static let name = "hold-focus"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "486cf17d35bf4964bdf1d7916929f24e", error: "c03fdd2a7dd64faebcf20e1e90d9d2a5")
    package typealias Params = HoldFocusParams
    package typealias Result = HoldFocusResult
}

package struct HoldFocusParams: Codable, Sendable, Hashable {
    /// A Focus the caller's uid has defined (`define-focus` or `set-focus`).
    package var name: String
    /// Why, for `get-focus` and the journal (such as "presenting"): at most
    /// ``maxReasonBytes`` bytes of UTF-8.
    package var reason: String?

    package static let maxReasonBytes = 256

    package init(name: String, reason: String? = nil) {
        self.name = name
        self.reason = reason
    }
}

extension HoldFocusParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            HoldFocusParams(name: try members.required("name"), reason: try members.optional("reason"))
        }
    }
}

/// The hold taken, and the Focus in effect now (the held one).
package struct HoldFocusResult: Codable, Sendable, Hashable {
    /// The hold's identifier, for `release-focus-hold`.
    package var hold: String
    package var focus: FocusConfiguration?

    package init(hold: String, focus: FocusConfiguration?) {
        self.hold = hold
        self.focus = focus
    }

    private enum CodingKeys: String, CodingKey {
        case hold, focus
    }

    /// `hold`, then `focus` as `set-focus` writes it (`null` rather than left out).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hold, forKey: .hold)
        try SetFocusResult(focus: focus).encode(to: encoder)
    }
}

/// `release-focus-hold`: ends one of the caller's uid's holds before its connection closes
/// (closing the connection is the usual way). Heraldd logs a connection's holds released
/// under this method in its change log, so that a replay ends them where they ended.
package enum ReleaseFocusHoldMethod: HeraldMethod {
    package static let name = "release-focus-hold"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "222e947b1606479dab1eadb781269281", error: "df29db2b4f554ba798de0dc8086cf868")
    package typealias Params = ReleaseFocusHoldParams
    package typealias Result = SetFocusResult
}

package struct ReleaseFocusHoldParams: Codable, Sendable, Hashable {
    /// A hold's identifier, as `hold-focus` answered it.
    package var hold: String

    package init(hold: String) {
        self.hold = hold
    }
}

extension ReleaseFocusHoldParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            ReleaseFocusHoldParams(hold: try members.required("hold"))
        }
    }
}

/// A hold of a Focus, as `get-focus` lists it: who holds it, since when, and why.
package struct FocusHoldInfo: Codable, Sendable, Hashable {
    package var hold: String
    /// The Focus held.
    package var name: String
    package var reason: String?
    /// The holding process, from its connection's peer credentials.
    package var pid: Int32
    /// The holding process's command name (`/proc/PID/comm`), when it could be read.
    package var command: String?
    package var since: Date
    /// True once a choice made by hand (or the Focus's deletion) overrode the hold: it no
    /// longer decides the Focus in effect, and its end changes nothing.
    package var overridden: Bool

    package init(hold: String, name: String, reason: String?, pid: Int32, command: String?, since: Date, overridden: Bool) {
        self.hold = hold
        self.name = name
        self.reason = reason
        self.pid = pid
        self.command = command
        self.since = since
        self.overridden = overridden
    }
}
