/// `set-cooldown`: the person's burst cooldown — how long, in seconds, notifications of
/// one conversation (or one app) that follow each other arrive without sound after the
/// first alerted. 0 turns it off. Each uid has its own; an administrator may name another
/// `uid`.
package enum SetCooldownMethod: HeraldMethod {
    package static let name = "set-cooldown"
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "9835150fe19e4b8191308073304111b8", error: "ce05289b8cfb4270aa618ef13bb6918f")
    package typealias Params = SetCooldownParams
    package typealias Result = CooldownResult
}

package struct SetCooldownParams: Codable, Sendable, Hashable {
    /// The window in whole seconds, 0 (off) to 600.
    package var seconds: Int
    /// Administrators only: another uid's cooldown.
    package var uid: UInt32?

    package init(seconds: Int, uid: UInt32? = nil) {
        self.seconds = seconds
        self.uid = uid
    }
}

extension SetCooldownParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SetCooldownParams(seconds: try members.required("seconds"), uid: try members.optional("uid"))
        }
    }
}

/// A uid's burst cooldown, as `set-cooldown` left it (`get-cooldown` reads it back).
package struct CooldownResult: Codable, Sendable, Hashable {
    /// Whose cooldown this is.
    package var uid: UInt32
    /// The window in seconds; 0 when the cooldown is off.
    package var seconds: Int

    package init(uid: UInt32, seconds: Int) {
        self.uid = uid
        self.seconds = seconds
    }
}
