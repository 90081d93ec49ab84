import Foundation
import HeraldCore
import HeraldProtocol
import HeraldSystemd

/// The journal entry of a change of a uid's Focus in effect, under its own `MESSAGE_ID`:
/// the Focus's name, on or off, why, and how many people and apps it allows — never who.
enum FocusJournal {
    static func entry(_ change: FocusChange) -> JournalEntry {
        var entry = JournalEntry()
        var message = "Focus \(change.name) \(change.isOn ? "on" : "off") for uid \(change.uid) (\(change.cause))"
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
        try? entry.append(name: "HERALD_ALLOWED_PEOPLE", value: String(change.allowedPeople))
        try? entry.append(name: "HERALD_ALLOWED_APPS", value: String(change.allowedApps))
        return entry
    }
}
