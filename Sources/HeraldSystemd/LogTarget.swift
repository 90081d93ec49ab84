import Glibc

/// Where the journal writer sends entries.
///
/// Spelled as on heraldd's command line: `--log-target auto|journal|console|none`.
/// (Compare with `LogTarget.none` spelled out: a bare `.none` next to an optional means `nil`.)
package enum LogTarget: String, Sendable, Hashable, CaseIterable {
    /// journald's native protocol, through `sd_journal_sendv`.
    case journal
    /// One logfmt line per entry on standard error, for running in a terminal.
    case console
    /// Nothing is written; entries are counted as written.
    case none

    /// The socket journald listens on for its native protocol.
    package static let journalSocketPath = "/run/systemd/journal/socket"

    /// Resolves a requested target: `journal`, `console`, `none`, or `auto`, which is
    /// `journal` when journald's socket exists and `console` otherwise. Nil for anything else.
    package static func resolve(_ requested: String) -> LogTarget? {
        if requested == "auto" {
            return journalSocketExists() ? .journal : .console
        }
        return LogTarget(rawValue: requested)
    }

    /// Whether journald's native socket exists, that is whether journald runs.
    package static func journalSocketExists() -> Bool {
        var info = stat()
        guard stat(journalSocketPath, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFSOCK
    }
}
