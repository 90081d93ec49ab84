/// What a ``JournalWriter`` did with the entries submitted to it, since it started.
public struct JournalWriterCounters: Sendable, Hashable {
    /// Submitted entries handed to the target (for `.none`, discarded as asked).
    public var written: UInt64 = 0
    /// Submitted entries dropped because the queue was full or the writer shut down.
    public var dropped: UInt64 = 0
    /// Submitted entries the target refused (`sd_journal_sendv` or `write` failed).
    public var failed: UInt64 = 0
    /// "journal queue was full" entries the writer wrote on its own; not in `written`.
    public var dropReports: UInt64 = 0

    public init() {}
}
