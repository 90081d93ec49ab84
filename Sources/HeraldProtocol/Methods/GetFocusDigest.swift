/// `get-focus-digest`: what the caller's last Focus silenced (the last `focus-digest`), and
/// what the Focus on now has silenced so far. An administrator may name another `uid`.
package enum GetFocusDigestMethod: HeraldMethod {
    package static let name = "get-focus-digest"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "cacb3ea372b84af984e8ba6a2f549d1e", error: "a18707cc980a4ab898b5506bdaa83eea")
    package typealias Params = UIDParams
    package typealias Result = GetFocusDigestResult
}

package struct GetFocusDigestResult: Codable, Sendable, Hashable {
    package var uid: UInt32
    /// The digest of the last Focus that ended having silenced something; absent before one.
    package var digest: FocusDigest?
    /// The Focus on now: what it silenced so far (no `endedAt`); absent when none is on.
    package var running: FocusDigest?

    package init(uid: UInt32, digest: FocusDigest?, running: FocusDigest?) {
        self.uid = uid
        self.digest = digest
        self.running = running
    }
}
