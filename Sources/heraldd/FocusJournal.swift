import FoundationEssentials
import HeraldCore
import HeraldProtocol
import HeraldServer
import HeraldSystemd

/// The journal entry of a change of a uid's Focus in effect, under its own `MESSAGE_ID`:
/// the Focus's name, on or off, why (and on which other host, for a change herald-sync
/// carried), and how many people and apps it allows — never who.
enum FocusJournal {
    static func entry(_ change: FocusChange) -> JournalEntry {
        var entry = JournalEntry()
        var message = "Focus \(change.name) \(change.isOn ? "on" : "off") for uid \(change.uid) (\(change.cause)"
        if let origin = change.origin {
            message += " on host \(origin.host)" + (origin.reason.map { ", \($0.rawValue) there" } ?? "")
        }
        message += ")"
        if let previous = change.previous { message += ", replacing \(previous)" }
        if change.isOn { message += ": \(change.allowedPeople) allowed people, \(change.allowedApps) allowed apps" }
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.info.rawValue))
        try? entry.append(name: "MESSAGE", value: message)
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.focusChanged)
        try? entry.append(name: "HERALD_UID", value: String(change.uid))
        try? entry.append(name: "HERALD_FOCUS", value: change.name)
        try? entry.append(name: "HERALD_FOCUS_ON", value: change.isOn ? "1" : "0")
        try? entry.append(name: "HERALD_FOCUS_CAUSE", value: change.cause)
        if let previous = change.previous { try? entry.append(name: "HERALD_FOCUS_PREVIOUS", value: previous) }
        if let endsAt = change.endsAt { try? entry.append(name: "HERALD_FOCUS_ENDS", value: RFC3339.format(endsAt)) }
        if let origin = change.origin {
            try? entry.append(name: "HERALD_FOCUS_ORIGIN_HOST", value: origin.host)
            if let reason = origin.reason { try? entry.append(name: "HERALD_FOCUS_ORIGIN_REASON", value: reason.rawValue) }
        }
        try? entry.append(name: "HERALD_ALLOWED_PEOPLE", value: String(change.allowedPeople))
        try? entry.append(name: "HERALD_ALLOWED_APPS", value: String(change.allowedApps))
        return entry
    }

    /// The journal entry of a Focus digest: whose, which Focus, how it ended, and counts —
    /// never an app, a sender's name or content.
    static func digestEntry(_ digest: FocusDigest) -> JournalEntry {
        let conversations = digest.entries.filter { $0.conversationIdentifier != nil }.count
        let apps = digest.entries.count - conversations
        var entry = JournalEntry()
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.info.rawValue))
        try? entry.append(
            name: "MESSAGE",
            value: "Focus \(digest.focus) of uid \(digest.uid) silenced \(digest.total) notifications: digest of \(conversations) conversations and \(apps) apps")
        try? entry.append(name: "MESSAGE_ID", value: JournalMessageID.focusDigest)
        try? entry.append(name: "HERALD_UID", value: String(digest.uid))
        try? entry.append(name: "HERALD_FOCUS", value: digest.focus)
        if let endedBy = digest.endedBy { try? entry.append(name: "HERALD_FOCUS_DIGEST_END", value: endedBy.rawValue) }
        try? entry.append(name: "HERALD_COUNT", value: String(digest.total))
        try? entry.append(name: "HERALD_FOCUS_DIGEST_CONVERSATIONS", value: String(conversations))
        try? entry.append(name: "HERALD_FOCUS_DIGEST_APPS", value: String(apps))
        try? entry.append(name: "HERALD_FOCUS_DIGEST_UNLISTED", value: String(digest.unlisted))
        return entry
    }

    /// The journal entry of a Focus hold begun or ended: whose, which Focus, the holding
    /// process and the reason it gave.
    static func holdEntry(_ event: FocusHoldEvent) -> JournalEntry {
        let hold = event.hold
        var entry = JournalEntry()
        let holder = "pid \(hold.pid)" + (hold.command.map { " (\($0))" } ?? "")
        let message =
            event.began
            ? "Focus \(hold.name) held for uid \(event.uid) by \(holder)"
            : "Focus \(hold.name) hold by \(holder) ended for uid \(event.uid)\(hold.overridden ? ", overridden by hand" : "")"
        try? entry.append(name: "PRIORITY", value: String(JournalPriority.info.rawValue))
        try? entry.append(name: "MESSAGE", value: message)
        try? entry.append(name: "MESSAGE_ID", value: event.began ? JournalMessageID.focusHoldBegan : JournalMessageID.focusHoldEnded)
        try? entry.append(name: "HERALD_UID", value: String(event.uid))
        try? entry.append(name: "HERALD_FOCUS", value: hold.name)
        try? entry.append(name: "HERALD_FOCUS_HOLD", value: hold.hold)
        try? entry.append(name: "HERALD_HOLDER_PID", value: String(hold.pid))
        if let command = hold.command { try? entry.append(name: "HERALD_HOLDER_COMMAND", value: command) }
        if let reason = hold.reason { try? entry.append(name: "HERALD_HOLD_REASON", value: reason) }
        if !event.began, hold.overridden { try? entry.append(name: "HERALD_HOLD_OVERRIDDEN", value: "1") }
        return entry
    }
}
