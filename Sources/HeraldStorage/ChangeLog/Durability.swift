import HeraldCore
/// How heraldd keeps what it acknowledged (`--durability`), as redis's `appendfsync` does.
package enum Durability: String, Sendable, Hashable, CaseIterable {
    /// Each change is written to the change log before its answer leaves, and the log is
    /// `fdatasync`ed once a second off the event loops: a kill -9, an OOM kill or a crash
    /// loses nothing acknowledged (the kernel holds what was written); a power cut at most
    /// about a second.
    case logEverysec = "log-everysec"
    /// The log is `fdatasync`ed before the answers leave, many requests to one sync (group
    /// commit): a power cut loses nothing acknowledged.
    case log
    /// No change log: what was acknowledged since the last snapshot is lost by a crash.
    case snapshot

    /// Whether changes go to a change log at all.
    package var logsChanges: Bool { self != .snapshot }
}
