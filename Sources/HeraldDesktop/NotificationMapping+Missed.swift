import Foundation
import HeraldBus
import HeraldProtocol

/// "Show" on a Focus digest: the digest's bubble becomes the list of what the Focus
/// silenced — each notification's app and title (the sender, for a message) and text,
/// newest first — so that a person sees what they missed where the digest told them of it.
extension NotificationMapping {
    /// The `Notify` action key of the digest's "Show".
    package static let showMissedActionKey = "herald-show-missed"
    /// The most missed notifications the list names; the rest are counted ("and 4 more").
    package static let missedLines = 8
    /// The most characters of a notification's text on its line.
    static let missedTextCharacters = 80

    /// The list of `newestFirst` (the notifications `digest`'s Focus silenced that are
    /// still in the list, as `list-notifications` orders them), in the digest's place:
    /// "Missed while Work was on", a line each, and how many more there are with where to
    /// see them all. Quiet, like the digest.
    package func missedBubble(for digest: FocusDigest, newestFirst: [PresentedNotification], appName: (String) -> String = { $0 }) -> Bubble {
        let escape = capabilities.bodyMarkup ? BodyMarkup.escape : { $0 }
        var lines = newestFirst.prefix(Self.missedLines).map { escape(Self.missedLine($0, appName: appName($0.app))) }
        let rest = max(digest.total, newestFirst.count) - lines.count
        if lines.isEmpty {
            lines.append("None of them is in your list any more.")
        } else if rest > 0 {
            lines.append(escape("and \(rest) more — heraldctl focus missed, heraldctl notifications list"))
        }
        let title = "Missed while \(digest.focus) was on"
        return Bubble(
            key: .focusDigest(uid: digest.uid),
            arguments: NotifyArguments(
                appName: "Herald",
                summary: capabilities.body ? title : "\(title): \(lines.joined(separator: ", "))",
                body: capabilities.body ? lines.joined(separator: "\n") : "",
                hints: [("urgency", .byte(0)), ("suppress-sound", .boolean(true))]
            )
        )
    }

    /// Whether `notification` is one that `digest`'s Focus silenced: delivered quietly
    /// for it (`silencedByFocus`, not held for the summary), while it was on. Times compare
    /// in whole milliseconds, as the wire writes them.
    package static func isMissed(_ notification: PresentedNotification, during digest: FocusDigest) -> Bool {
        guard notification.delivery.presentation != .summary,
            notification.delivery.reasons.contains(where: { $0.code == .silencedByFocus })
        else { return false }
        let at = RFC3339.milliseconds(silencedAt(notification))
        if let start = digest.startedAt, at < RFC3339.milliseconds(start) { return false }
        if let end = digest.endedAt, at > RFC3339.milliseconds(end) { return false }
        return true
    }

    /// "Chatty — Ann Lee: Lunch?": the app as its desktop file names it, the title (a
    /// message's sender), the text cut at ``missedTextCharacters``.
    package static func missedLine(_ notification: PresentedNotification, appName: String) -> String {
        let text = [notification.content.title, notification.content.body].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
        guard !text.isEmpty else { return appName }
        let cut = text.count > missedTextCharacters ? text.prefix(missedTextCharacters - 1) + "…" : Substring(text)
        return "\(appName) — \(cut)"
    }

    private static func silencedAt(_ notification: PresentedNotification) -> Date {
        notification.deliveredAt ?? notification.receivedAt
    }
}

extension PresentedNotification {
    /// The notifications of a `list-notifications` result.
    package static func page(in result: JSONValue) throws(RPCError) -> [PresentedNotification] {
        try EventReader(result, at: "/result").records("notifications", PresentedNotification.init(reading:))
    }
}
