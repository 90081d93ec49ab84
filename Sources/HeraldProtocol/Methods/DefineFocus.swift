/// `define-focus`: defines (or replaces) one of the caller's named Focuses — allowed
/// people and apps, switches, schedules — without turning it on by hand. A Focus that is
/// on takes the new definition at once. An administrator may name another `uid`.
package enum DefineFocusMethod: HeraldMethod {
    package static let name = "define-focus"
    package static let needsStore = false
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "5c0e2f7b9a8d4e21b3c6a41f0d7e9b52", error: "a3f18c6e2d7b4905be1c7d92e4f6a803")
    package typealias Params = DefineFocusParams
    package typealias Result = GetFocusResult
}

package struct DefineFocusParams: Codable, Sendable, Hashable {
    /// The definition; `until` is refused (it belongs to turning a Focus on).
    package var focus: FocusConfiguration
    /// Administrators only: another uid's Focuses.
    package var uid: UInt32?

    package init(focus: FocusConfiguration, uid: UInt32? = nil) {
        self.focus = focus
        self.uid = uid
    }
}

extension DefineFocusParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            DefineFocusParams(focus: try members.required("focus"), uid: try members.optional("uid"))
        }
    }
}

/// `delete-focus`: forgets one of the caller's named Focuses; if it is on, the Focus goes
/// off. An administrator may name another `uid`.
package enum DeleteFocusMethod: HeraldMethod {
    package static let name = "delete-focus"
    package static let needsStore = false
    package static let access: MethodAccess = .person
    package static let changesState = true
    package static let journalMessageIDs = JournalMessageIDs(ok: "7d41b0e95c3a4f68a2e7c15b9f0d3e14", error: "e6b2a9d14f704c83b5e08a71c3d9f246")
    package typealias Params = DeleteFocusParams
    package typealias Result = GetFocusResult
}

package struct DeleteFocusParams: Codable, Sendable, Hashable {
    package var name: String
    /// Administrators only: another uid's Focuses.
    package var uid: UInt32?

    package init(name: String, uid: UInt32? = nil) {
        self.name = name
        self.uid = uid
    }
}

extension DeleteFocusParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            DeleteFocusParams(name: try members.required("name"), uid: try members.optional("uid"))
        }
    }
}
