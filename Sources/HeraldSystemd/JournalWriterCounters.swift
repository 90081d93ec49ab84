/// What a ``JournalWriter`` did with the entries submitted to it, since it started.
package struct JournalWriterCounters: Sendable, Hashable {
    /// Submitted entries handed to the target (for `.none`, discarded as asked).
    package var written: UInt64 = 0
    /// Submitted entries dropped because the queue was full or the writer shut down.
    package var dropped: UInt64 = 0
    /// Submitted entries the target refused (`sd_journal_sendv` or `write` failed).
    package var failed: UInt64 = 0
    /// "journal queue was full" entries the writer wrote on its own; not in `written`.
    package var dropReports: UInt64 = 0

    package init() {}
}
