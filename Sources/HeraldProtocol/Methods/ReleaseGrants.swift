/// `release-grants`: the person's gateway (herald-notify) answers `grants-revoked`: it has
/// stopped showing notifications under the standing grants heraldd revoked, and what it
/// showed under them is on its way already (the connection keeps the order). Heraldd
/// applies the change that revoked them once this comes, or 50 ms after it asked.
package enum ReleaseGrantsMethod: HeraldMethod {
    package static let name = "release-grants"
    package static let access: MethodAccess = .person
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "e81384a6849942c4a11d202e81676a09", error: "c45c509d31c5435a8be3bf25b800cf9d")
    package typealias Params = ReleaseGrantsParams
    package typealias Result = ReleaseGrantsResult
}

package struct ReleaseGrantsParams: Codable, Sendable, Hashable {
    /// The number of the `grants-revoked` event answered.
    package var revocation: Int

    package init(revocation: Int) {
        self.revocation = revocation
    }
}

extension ReleaseGrantsParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            ReleaseGrantsParams(revocation: try members.required("revocation"))
        }
    }
}

package struct ReleaseGrantsResult: Codable, Sendable, Hashable {
    /// Whether heraldd was still waiting for this answer (false: it waited 50 ms and went
    /// on; what was shown under the grants is decided again as it comes).
    package var awaited: Bool

    package init(awaited: Bool) {
        self.awaited = awaited
    }
}
