/// `get-cooldown`: the caller's burst cooldown (60 seconds until the person sets one). An
/// administrator may name another `uid`.
package enum GetCooldownMethod: HeraldMethod {
    package static let name = "get-cooldown"
    package static let needsStore = false
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "a916d2e58406430ba5dbb70414490eee", error: "c8e45fd84e1c4c84b9338ec33e576342")
    package typealias Params = UIDParams
    package typealias Result = CooldownResult
}
