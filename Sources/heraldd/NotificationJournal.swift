import HeraldProtocol
import HeraldSystemd

/// The journal entry of a summary delivered: the uid, how many and which notifications —
/// identifiers only, never content — under its own `MESSAGE_ID`.
enum NotificationJournal {
    /// At most this many identifiers are listed in one field; `HERALD_COUNT` has them all.
    static let maxListed = 100

    static func summaryEntry(_ summary: NotificationSummary) -> JournalEntry {
        let identifiers = summary.notifications.map(\.identifier)
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.info.rawValue))
        try? entry.append(name: "MESSAGE", value: "summary delivered to uid \(summary.uid): \(identifiers.count) notifications")
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.summaryDelivered)
        try? entry.append(name: "HERALD_UID", value: String(summary.uid))
        try? entry.append(name: "HERALD_COUNT", value: String(identifiers.count))
        try? entry.append(name: "HERALD_PRESENTATION", value: summary.presentation.rawValue)
        if let focus = summary.focus { try? entry.append(name: "HERALD_FOCUS", value: focus) }
        try? entry.append(name: "HERALD_NOTIFICATION_IDS", value: identifiersField(identifiers))
        return entry
    }

    /// The journal entry of a snoozed notification that came back: whose, which, how.
    static func snoozeEndedEntry(_ delivered: NotificationDelivered) -> JournalEntry {
        let notification = delivered.notification
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.info.rawValue))
        try? entry.append(
            name: "MESSAGE",
            value: "snoozed notification \(notification.identifier) of \(notification.app) delivered again to uid \(delivered.uid)")
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.snoozeEnded)
        try? entry.append(name: "HERALD_UID", value: String(delivered.uid))
        try? entry.append(name: "HERALD_APP", value: notification.app)
        try? entry.append(name: "HERALD_NOTIFICATION_ID", value: notification.identifier)
        try? entry.append(name: "HERALD_PRESENTATION", value: notification.delivery.presentation.rawValue)
        for reason in notification.delivery.reasons { try? entry.append(name: "HERALD_REASON", value: reason.code.rawValue) }
        return entry
    }

    /// The journal entry of a response: who answered which notification with which action,
    /// and whether the app heard it at once — never `userText`, which is message content.
    static func responseEntry(uid: UInt32, _ response: NotificationResponse, handoff: ResponseHandoff) -> JournalEntry {
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.info.rawValue))
        try? entry.append(
            name: "MESSAGE",
            value: "response \(response.actionIdentifier) to notification \(response.identifier) of \(response.app), uid \(uid): \(handoff.rawValue)"
        )
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.notificationResponse)
        try? entry.append(name: "HERALD_UID", value: String(uid))
        try? entry.append(name: "HERALD_APP", value: response.app)
        try? entry.append(name: "HERALD_NOTIFICATION_ID", value: response.identifier)
        try? entry.append(name: "HERALD_ACTION_ID", value: response.actionIdentifier)
        try? entry.append(name: "HERALD_RESPONSE", value: handoff.rawValue)
        return entry
    }

    /// The identifiers, comma-separated, the first ``maxListed`` of them.
    static func identifiersField(_ identifiers: [String]) -> String {
        identifiers.prefix(maxListed).joined(separator: ",")
    }
}
