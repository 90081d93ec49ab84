import FoundationEssentials
import HeraldProtocol

/// The order of a scheduled summary: a `relevanceScore` and media give a notification "a
/// better chance to be featured at the top of the notification summary".
///
/// 1. `relevanceScore`, highest first (absent counts as 0);
/// 2. on a tie, those with attachments or an avatar first;
/// 3. then communication notifications before others;
/// 4. then the newest (`receivedAt`) first.
enum SummaryRanking {
    static func precedes(_ a: HeraldNotification, _ b: HeraldNotification) -> Bool {
        let (scoreA, scoreB) = (a.content.relevanceScore ?? 0, b.content.relevanceScore ?? 0)
        if scoreA != scoreB { return scoreA > scoreB }
        let (mediaA, mediaB) = (hasMedia(a.content), hasMedia(b.content))
        if mediaA != mediaB { return mediaA }
        let (communicationA, communicationB) = (a.content.communication != nil, b.content.communication != nil)
        if communicationA != communicationB { return communicationA }
        return a.receivedAt > b.receivedAt
    }

    /// Attachments (a non-empty array, or any other non-null value) or a communication's avatar.
    static func hasMedia(_ content: NotificationContent) -> Bool {
        if content.communication?.avatar != nil { return true }
        switch content.attachments {
        case nil, .null?: return false
        case .array(let items)?: return !items.isEmpty
        default: return true
        }
    }
}

extension NotificationList {
    /// `due` in the summary's order; equal ones newest stamp first.
    static func ranked(_ due: [(entry: Entry, notification: HeraldNotification)]) -> [(entry: Entry, notification: HeraldNotification)] {
        due.sorted { a, b in
            if SummaryRanking.precedes(a.notification, b.notification) { return true }
            if SummaryRanking.precedes(b.notification, a.notification) { return false }
            return a.entry.stamp > b.entry.stamp
        }
    }
}
