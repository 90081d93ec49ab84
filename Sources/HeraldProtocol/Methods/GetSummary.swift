/// `get-summary`: the caller's scheduled summary, with its next delivery. An
/// administrator may name another `uid`.
package enum GetSummaryMethod: HeraldMethod {
    package static let name = "get-summary"
    package static let needsStore = false
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "c2d7e84a1b9f4e6c8a05f3b2d1e7c946", error: "4a8f1e2b7c3d49e5a6b0d9c8e7f1a235")
    package typealias Params = UIDParams
    package typealias Result = SetSummaryResult
}
