import HeraldBus
import HeraldProtocol

/// How a Herald notification becomes `Notify` arguments on a freedesktop notification
/// server: the table in the README's herald-notify section, one rule per line below.
package struct NotificationMapping: Sendable {
    package var capabilities: ServerCapabilities
    package var quiet: QuietHandling

    package init(capabilities: ServerCapabilities, quiet: QuietHandling = .skip) {
        self.capabilities = capabilities
        self.quiet = quiet
    }

    /// The Notify action key of "open the notification" (the specification's default action).
    package static let defaultActionKey = "default"
    /// The Herald action identifier a default action answers with (`UNNotificationDefaultActionIdentifier`).
    package static let defaultActionIdentifier = "default"
    /// The Herald action identifier a dismissal answers with, for a category with
    /// customDismissAction (`UNNotificationDismissActionIdentifier`).
    package static let dismissActionIdentifier = "dismiss"

    /// The bubble for a delivered notification, or nil when it is not shown: a quiet one
    /// under `--quiet skip`, or one held for the summary (shown with its summary).
    package func bubble(for notification: PresentedNotification) -> Bubble? {
        let content = notification.content
        let isQuiet = notification.delivery.presentation == .quiet
        switch notification.delivery.presentation {
        case .summary: return nil
        case .quiet where quiet == .skip: return nil
        case .alert, .quiet: break
        }
        var hints: [(key: String, value: BusValue)] = [("urgency", .byte(isQuiet ? 0 : Self.urgency(content.interruptionLevel)))]
        let type = content.communication?.type
        switch type {
        case .sendMessage: hints.append(("category", .string("im.received")))
        case .startCall: hints.append(("category", .string("x-herald.call")))
        case nil: break
        }
        if notification.delivery.sound, !isQuiet {
            switch type {
            case .sendMessage: hints.append(("sound-name", .string("message-new-instant")))
            case .startCall: hints.append(("sound-name", .string("phone-incoming-call")))
            case nil: break  // the server's own sound
            }
        } else {
            hints.append(("suppress-sound", .boolean(true)))
        }
        let (actions, actionKeys, usesIcons) = actions(notification.actions ?? [])
        if usesIcons { hints.append(("action-icons", .boolean(true))) }
        let (summary, body) = text(title: content.title ?? notification.app, subtitle: content.subtitle, body: content.body)
        return Bubble(
            key: .notification(notification.key),
            arguments: NotifyArguments(appName: notification.app, summary: summary, body: body, actions: actions, hints: hints),
            image: ImageSource.of(content),
            actionKeys: actionKeys,
            answersDismissal: notification.answersDismissal
        )
    }

    /// The most lines a summary bubble lists; the rest are counted ("+N more").
    package static let summaryLines = 5
    package static let summaryTitle = "Notification summary"

    /// One bubble for a whole summary: its first ``summaryLines`` notifications, in
    /// heraldd's ranking, then how many more there are.
    package func summaryBubble(for notifications: [PresentedNotification]) -> Bubble? {
        guard !notifications.isEmpty else { return nil }
        var lines = notifications.prefix(Self.summaryLines).map { notification in
            let title = notification.content.title ?? notification.app
            let line = [title, notification.content.body].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return capabilities.bodyMarkup ? BodyMarkup.escape(line) : line
        }
        if notifications.count > Self.summaryLines { lines.append("+\(notifications.count - Self.summaryLines) more") }
        let summary = capabilities.body ? Self.summaryTitle : "\(Self.summaryTitle) (\(notifications.count))"
        return Bubble(
            key: .summary,
            arguments: NotifyArguments(
                appName: "Herald",
                summary: summary,
                body: lines.joined(separator: "\n"),
                hints: [("urgency", .byte(1)), ("suppress-sound", .boolean(true))]
            )
        )
    }

    /// critical 2 (stays until dismissed), timeSensitive and active 1, passive 0.
    static func urgency(_ level: InterruptionLevel?) -> UInt8 {
        switch level ?? .active {
        case .critical: 2
        case .timeSensitive, .active: 1
        case .passive: 0
        }
    }

    /// Summary and body: the subtitle heads the body where the server shows one, else it
    /// joins the summary; the body is escaped where the server reads markup.
    private func text(title: String, subtitle: String?, body: String?) -> (summary: String, body: String) {
        let subtitle = subtitle.flatMap { $0.isEmpty ? nil : $0 }
        let escape = capabilities.bodyMarkup ? BodyMarkup.escape : { $0 }
        guard capabilities.body else {
            return (subtitle.map { "\(title) — \($0)" } ?? title, body.map(escape) ?? "")
        }
        var parts: [String] = []
        if let subtitle { parts.append(capabilities.bodyMarkup ? "<b>\(escape(subtitle))</b>" : subtitle) }
        if let body, !body.isEmpty { parts.append(escape(body)) }
        return (title, parts.joined(separator: "\n"))
    }

    /// The `Notify` actions: the default action (opening the notification), then each
    /// action of its category but text-input ones, which the specification cannot ask for.
    /// With `action-icons`, an action with an icon is keyed by the icon's name.
    private func actions(_ actions: [PresentedAction]) -> (actions: [String], keys: [String: String], usesIcons: Bool) {
        guard capabilities.actions else { return ([], [:], false) }
        var flat = [Self.defaultActionKey, "Open"]
        var keys = [Self.defaultActionKey: Self.defaultActionIdentifier]
        var usesIcons = false
        for action in actions where action.textInput == nil {
            var key = action.identifier
            if capabilities.actionIcons, let icon = action.icon?.name, keys[icon] == nil {
                key = icon
                usesIcons = true
            }
            guard keys[key] == nil else { continue }
            keys[key] = action.identifier
            flat += [key, action.title]
        }
        return (flat, keys, usesIcons)
    }
}
