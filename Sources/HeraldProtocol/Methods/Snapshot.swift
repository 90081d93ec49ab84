/// `snapshot` (administrators): writes a snapshot of the whole state now, and says where
/// and how large. The periodic snapshots go on as before.
package enum SnapshotMethod: HeraldMethod {
    package static let name = "snapshot"
    package static let access: MethodAccess = .administrator
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "835cae421b4a47c48b2ef1231ea1e120", error: "b7c6250a9c1544b3aab2884b769dd5dd")
    /// Seconds for a large state: answered on a thread of its own, so that the other
    /// connections of its event loop are served meanwhile.
    package static let placement = MethodPlacement.idleThread
    package typealias Params = NoParams
    package typealias Result = SnapshotResult
}

package struct SnapshotResult: Codable, Sendable, Hashable {
    /// The snapshot file: `state.snapshot` in the state folder.
    package var path: String
    /// One more than the snapshot before it; survives restarts.
    package var generation: Int
    /// Interactions in the snapshot.
    package var interactions: Int
    /// The file's size.
    package var bytes: Int
    /// From the copy of the state to the folder's fsync.
    package var durationMs: Double

    package init(path: String, generation: Int, interactions: Int, bytes: Int, durationMs: Double) {
        self.path = path
        self.generation = generation
        self.interactions = interactions
        self.bytes = bytes
        self.durationMs = durationMs
    }
}
