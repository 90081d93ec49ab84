/// The syslog priority of a journal entry, the `PRIORITY` field: 0 is the most severe.
package enum JournalPriority: Int, Sendable, Hashable, CaseIterable {
    case emergency = 0
    case alert = 1
    case critical = 2
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7
}
