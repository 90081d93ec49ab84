import HeraldBus
import HeraldProtocol

/// How a Herald notification becomes `Notify` arguments on a freedesktop notification
/// server: the herald-notify table in docs/operations.md, one rule per line below.
package struct NotificationMapping: Sendable {
    package var capabilities: ServerCapabilities
    package var quiet: QuietHandling
    /// Whether a reply's text is asked for with the person's own prompt (herald-notify's
    /// `--reply-command`) where the server has no inline reply.
    package var promptsForReplies: Bool

    package init(capabilities: ServerCapabilities, quiet: QuietHandling = .skip, promptsForReplies: Bool = false) {
        self.capabilities = capabilities
        self.quiet = quiet
        self.promptsForReplies = promptsForReplies
    }

    /// The Notify action key of "open the notification" (the specification's default action).
    package static let defaultActionKey = "default"
    /// The Herald action identifier a default action answers with (`UNNotificationDefaultActionIdentifier`).
    package static let defaultActionIdentifier = "default"
    /// The Herald action identifier a dismissal answers with, for a category with
    /// customDismissAction (`UNNotificationDismissActionIdentifier`).
    package static let dismissActionIdentifier = "dismiss"
    /// The Notify action key of "Snooze 1 hour", and how long it snoozes: herald-notify
    /// answers it with `snooze-notification`, not the app. An app's own action of this
    /// identifier comes first and keeps it.
    package static let snoozeActionKey = "herald-snooze"
    package static let snoozeSeconds = 3600
    /// The Notify action key of "Mute conversation 1 hour", offered on a message of a
    /// conversation, and how long it mutes: herald-notify answers it with `set-conversation`.
    package static let muteConversationActionKey = "herald-mute-conversation"
    package static let muteConversationSeconds = 3600

    /// The Notify action key of KDE's inline reply, and its hints.
    package static let inlineReplyKey = "inline-reply"
    static let replyPlaceholderHint = "x-kde-reply-placeholder-text"
    static let replySubmitHint = "x-kde-reply-submit-button-text"
    /// The Notify action key of a text-input action answered through the person's prompt
    /// (``promptsForReplies``): herald-notify asks for the text, then answers the app.
    package static let promptReplyKey = "herald-reply"

    /// The bubble for a delivered notification, or nil when it is not shown: a quiet one
    /// (unless `--quiet show`), or one held for the summary (shown with its summary).
    /// `entry` is the app's desktop file, when it has one: its name and icon are shown.
    package func bubble(for notification: PresentedNotification, entry: DesktopEntry? = nil) -> Bubble? {
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
        let (appActions, actionKeys, usesIcons, reply, prompt) = actions(notification.actions ?? [])
        var actions = appActions
        // Herald's own, after the app's: answered by herald-notify, never the app's.
        let snoozeKey = capabilities.actions && actionKeys[Self.snoozeActionKey] == nil ? Self.snoozeActionKey : nil
        if let snoozeKey { actions += [snoozeKey, "Snooze 1 hour"] }
        let muteConversation = capabilities.actions && actionKeys[Self.muteConversationActionKey] == nil
            ? content.communication?.conversationIdentifier : nil
        if muteConversation != nil { actions += [Self.muteConversationActionKey, "Mute conversation 1 hour"] }
        if usesIcons { hints.append(("action-icons", .boolean(true))) }
        if let reply {
            if let placeholder = reply.placeholder { hints.append((Self.replyPlaceholderHint, .string(placeholder))) }
            if let button = reply.buttonTitle { hints.append((Self.replySubmitHint, .string(button))) }
        }
        if let entry { hints.append(("desktop-entry", .string(entry.id))) }
        let appName = entry?.name ?? notification.app
        var thread = Self.thread(of: notification)
        if let tag = thread {
            if capabilities.stackTag {
                hints.append(("x-dunst-stack-tag", .string(tag)))
                thread = nil
            } else if capabilities.privateSynchronous {
                hints.append(("x-canonical-private-synchronous", .string(tag)))
                thread = nil
            }
        }
        let (summary, body) = text(title: content.title ?? appName, subtitle: content.subtitle, body: content.body)
        return Bubble(
            key: .notification(notification.key),
            arguments: NotifyArguments(
                appName: appName, appIcon: entry?.icon ?? "", summary: summary, body: body, actions: actions, hints: hints
            ),
            image: ImageSource.of(content),
            actionKeys: actionKeys,
            answersDismissal: notification.answersDismissal,
            thread: thread,
            inlineReplyAction: reply?.identifier,
            snoozeKey: snoozeKey,
            replyPrompt: prompt
        ).offeringMute(of: muteConversation)
    }

    /// The stack a notification joins, one per (app, thread): its `threadIdentifier` (which
    /// heraldd fills for a communication), else its conversation; nil for none.
    static func thread(of notification: PresentedNotification) -> String? {
        let content = notification.content
        guard let thread = content.threadIdentifier ?? content.communication?.conversationIdentifier, !thread.isEmpty else { return nil }
        return "herald:\(notification.app):\(thread)"
    }

    /// The most lines a summary bubble lists; the rest are counted ("+N more").
    package static let summaryLines = 5
    package static let summaryTitle = "Notification summary"
    /// The most apps a summary bubble's title names.
    package static let summaryApps = 3

    /// One bubble for a whole summary, "Notification summary: Chatty, News": the apps it
    /// holds by their names (``summaryApps`` at most, then how many more), and its first
    /// ``summaryLines`` notifications in heraldd's ranking, then how many more there are.
    /// `appName` names an app as its desktop file does. A quiet summary (delivered while a
    /// Focus was on) is handled as a quiet notification: not shown with `--quiet skip`,
    /// else at urgency 0; it stays in the list either way.
    package func summaryBubble(
        for notifications: [PresentedNotification], quiet isQuiet: Bool = false, appName: (String) -> String = { $0 }
    ) -> Bubble? {
        guard !notifications.isEmpty, !(isQuiet && quiet == .skip) else { return nil }
        var lines = notifications.prefix(Self.summaryLines).map { notification in
            let title = notification.content.title ?? appName(notification.app)
            let line = [title, notification.content.body].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return capabilities.bodyMarkup ? BodyMarkup.escape(line) : line
        }
        if notifications.count > Self.summaryLines { lines.append("+\(notifications.count - Self.summaryLines) more") }
        var apps: [String] = []
        for app in notifications.map(\.app) where !apps.contains(app) { apps.append(app) }
        var names = apps.prefix(Self.summaryApps).map(appName).joined(separator: ", ")
        if apps.count > Self.summaryApps { names += " and \(apps.count - Self.summaryApps) more" }
        let title = "\(Self.summaryTitle): \(names)"
        let summary = capabilities.body ? title : "\(title) (\(notifications.count))"
        return Bubble(
            key: .summary,
            arguments: NotifyArguments(
                appName: "Herald",
                summary: summary,
                body: lines.joined(separator: "\n"),
                hints: [("urgency", .byte(isQuiet ? 0 : 1)), ("suppress-sound", .boolean(true))]
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

    /// A text-input action offered as an inline reply: its identifier, placeholder and button.
    private struct InlineReply {
        var identifier: String
        var placeholder: String?
        var buttonTitle: String?
    }

    /// The `Notify` actions: the default action (opening the notification), then each
    /// action of its category. A text-input action, which the specification cannot ask
    /// for, is offered only where the server has KDE's inline reply (the first one, as
    /// `inline-reply`); elsewhere, with ``promptsForReplies``, the first one as
    /// ``promptReplyKey``, whose prompt says its placeholder (else its title); else the
    /// default action opens the app, where the person answers. With `action-icons`, an
    /// action with an icon is keyed by the icon's name.
    private func actions(
        _ actions: [PresentedAction]
    ) -> (actions: [String], keys: [String: String], usesIcons: Bool, reply: InlineReply?, prompt: String?) {
        guard capabilities.actions else { return ([], [:], false, nil, nil) }
        var flat = [Self.defaultActionKey, "Open"]
        var keys = [Self.defaultActionKey: Self.defaultActionIdentifier]
        var usesIcons = false
        var reply: InlineReply?
        var prompt: String?
        for action in actions {
            if let textInput = action.textInput {
                let input = textInput.objectValue
                let placeholder = input?["placeholder"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                if capabilities.inlineReply, reply == nil {
                    reply = InlineReply(
                        identifier: action.identifier, placeholder: placeholder,
                        buttonTitle: input?["buttonTitle"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                    )
                    keys[Self.inlineReplyKey] = action.identifier
                    flat += [Self.inlineReplyKey, action.title]
                } else if !capabilities.inlineReply, promptsForReplies, prompt == nil {
                    prompt = placeholder ?? action.title
                    keys[Self.promptReplyKey] = action.identifier
                    flat += [Self.promptReplyKey, action.title]
                }
                continue
            }
            var key = action.identifier
            if capabilities.actionIcons, let icon = action.icon?.name, keys[icon] == nil {
                key = icon
                usesIcons = true
            }
            guard keys[key] == nil else { continue }
            keys[key] = action.identifier
            flat += [key, action.title]
        }
        return (flat, keys, usesIcons, reply, prompt)
    }
}
