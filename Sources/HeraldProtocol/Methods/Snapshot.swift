/// `snapshot` (administrators): writes a snapshot of the whole state now, and says where
/// and how large. The periodic snapshots go on as before.
public enum SnapshotMethod: HeraldMethod {
    public static let name = "snapshot"
    public static let requiresAdministrator = true
    public typealias Params = NoParams
    public typealias Result = SnapshotResult
}

public struct SnapshotResult: Codable, Sendable, Hashable {
    /// The snapshot file: `state.snapshot` in the state folder.
    public var path: String
    /// One more than the snapshot before it; survives restarts.
    public var generation: Int
    /// Interactions in the snapshot.
    public var interactions: Int
    /// The file's size.
    public var bytes: Int
    /// From the copy of the state to the folder's fsync.
    public var durationMs: Double

    public init(path: String, generation: Int, interactions: Int, bytes: Int, durationMs: Double) {
        self.path = path
        self.generation = generation
        self.interactions = interactions
        self.bytes = bytes
        self.durationMs = durationMs
    }
}
