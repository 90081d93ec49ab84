/// `set-focus` (administrators): turn the host's Focus on with its configuration, or
/// off with `null`. Each call that turns one on starts a new activation.
package enum SetFocusMethod: HeraldMethod {
    package static let name = "set-focus"
    package static let requiresAdministrator = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "3720377470f441fa934dfd9467e2b44a", error: "0585a11238234cadbb817bea3f306a23")
    package typealias Params = SetFocusParams
    package typealias Result = SetFocusResult
}

package struct SetFocusParams: Codable, Sendable, Hashable {
    /// The Focus to turn on, or null to turn it off.
    package var focus: FocusConfiguration?

    package init(focus: FocusConfiguration?) {
        self.focus = focus
    }
}

extension SetFocusParams: ParamsReadable {
    /// An absent `focus` is null: the Focus goes off.
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetFocusParams(focus: try members.optional("focus"))
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
