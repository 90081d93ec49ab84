import HeraldCore
/// When the change log asks for the snapshot that compacts it: once the log after the last
/// snapshot's copy passes twice that snapshot's size, and never below ``floor`` — as redis
/// rewrites its append-only file once it has doubled (`auto-aof-rewrite-percentage 100`).
/// Without it, a long `--snapshot-interval` and many changes let the log grow without end.
package struct ChangeLogBound: Sendable, Hashable {
    /// The log's size below which it is never compacted for its size, in bytes: with a tiny
    /// or empty snapshot, twice its size would make a snapshot every few changes.
    package static let floor = 1 << 20

    /// The size of the last snapshot written, or loaded at start (0 for none), in bytes.
    package private(set) var snapshotBytes: Int
    /// Bytes of the segments after the last snapshot's copy: the one it began (or, before
    /// any snapshot, those continued at start) and what was appended to it since.
    package private(set) var logBytes: Int
    /// Whether this segment has asked for its snapshot already: it asks once.
    private var asked = false

    package init(snapshotBytes: Int, logBytes: Int) {
        self.snapshotBytes = snapshotBytes
        self.logBytes = logBytes
    }

    /// Twice the last snapshot's size, at least ``floor``.
    package var limit: Int { max(2 * snapshotBytes, Self.floor) }

    /// Counts `count` bytes appended; true when the log has just passed its limit.
    package mutating func appended(_ count: Int) -> Bool {
        logBytes += count
        return ask()
    }

    /// A snapshot's copy began a new segment, `headerBytes` long.
    package mutating func segmentBegun(headerBytes: Int) {
        logBytes = headerBytes
        asked = false
    }

    /// The snapshot whose copy began the current segment is durable, `bytes` long; true
    /// when what was appended meanwhile is already past the new limit.
    package mutating func snapshotWritten(bytes: Int) -> Bool {
        snapshotBytes = bytes
        return ask()
    }

    /// True, once per segment, when the log is past its limit.
    package mutating func ask() -> Bool {
        guard !asked, logBytes > limit else { return false }
        asked = true
        return true
    }
}
