/// Something that becomes a journal entry on the writer's thread.
///
/// Callers on the request path hand the writer a record (a small value they already
/// have) instead of a finished entry, so that formatting the message and the fields
/// happens off the request path.
package protocol JournalRecord: Sendable {
    func journalEntry() -> JournalEntry
}

extension JournalEntry: JournalRecord {
    package func journalEntry() -> JournalEntry { self }
}
