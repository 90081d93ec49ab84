import Foundation
import HeraldBus
import HeraldProtocol

extension FocusDigest {
    /// A `focus-digest` event's params, read leniently (``EventReader``).
    init(reading params: EventReader) throws(RPCError) {
        self.init(
            uid: try params.integer("uid"),
            focus: try params.string("focus"),
            startedAt: try params.optionalDate("startedAt"),
            endedAt: try params.optionalDate("endedAt"),
            // A way of ending a later heraldd adds reads as none.
            endedBy: (try? params.optionalCase("endedBy", as: FocusDigestEnd.self)) ?? nil,
            total: try params.integer("total"),
            entries: try params.optionalRecords("entries") { entry throws(RPCError) in
                FocusDigestEntry(
                    app: try entry.string("app"),
                    conversationIdentifier: try entry.optionalString("conversationIdentifier"),
                    conversationName: try entry.optionalString("conversationName"),
                    senders: try entry.optionalStrings("senders"),
                    count: try entry.integer("count"),
                    lastAt: try entry.optionalDate("lastAt") ?? .distantPast
                )
            } ?? [],
            unlisted: try params.optionalInteger("unlisted") ?? 0
        )
    }
}

extension NotificationMapping {
    /// The most entries a digest bubble lists; the rest are counted ("and N more").
    package static let digestLines = 5

    /// One bubble for a Focus digest: "While Work was on: 12 notifications", then its first
    /// ``digestLines`` entries, most relevant first ("Chat: Alice, Bob (5)"), and how many
    /// notifications the rest hold. Quiet (urgency 0, no sound): it tells of what was kept
    /// quiet, and is shown even with `--quiet skip`, as the one bubble a Focus leaves.
    /// Where the server has actions, "Show" lists the notifications themselves
    /// (``missedBubble(for:newestFirst:appName:)``).
    package func digestBubble(for digest: FocusDigest, appName: (String) -> String = { $0 }) -> Bubble? {
        guard digest.total > 0 else { return nil }
        let noun = digest.total == 1 ? "notification" : "notifications"
        let title = "While \(digest.focus) was on: \(digest.total) \(noun)"
        var lines = digest.entries.prefix(Self.digestLines).map { entry in
            let line = Self.digestLine(entry, appName: appName(entry.app))
            return capabilities.bodyMarkup ? BodyMarkup.escape(line) : line
        }
        let rest = digest.entries.dropFirst(Self.digestLines).reduce(digest.unlisted) { $0 + $1.count }
        if rest > 0 { lines.append("and \(rest) more") }
        let summary = capabilities.body ? title : "\(title) — \(lines.joined(separator: ", "))"
        let actions = capabilities.actions ? [Self.showMissedActionKey, "Show"] : []
        return Bubble(
            key: .focusDigest(uid: digest.uid),
            arguments: NotifyArguments(
                appName: "Herald",
                summary: summary,
                body: capabilities.body ? lines.joined(separator: "\n") : "",
                actions: actions,
                hints: [("urgency", .byte(0)), ("suppress-sound", .boolean(true))]
            ),
            actionKeys: capabilities.actions ? [Self.showMissedActionKey: Self.showMissedActionKey] : [:]
        )
    }

    /// "Chat: Team (5)", "Chat: Alice, Bob (3)" for a conversation; "Mail (2)" for an app,
    /// named `appName` (its desktop file's name, as every other bubble names it).
    static func digestLine(_ entry: FocusDigestEntry, appName: String) -> String {
        guard entry.conversationIdentifier != nil else { return "\(appName) (\(entry.count))" }
        let who = entry.conversationName ?? entry.senders.map { $0.joined(separator: ", ") } ?? "a conversation"
        return "\(appName): \(who) (\(entry.count))"
    }
}
