import HeraldBus
import HeraldDesktop

/// heraldd's bubbles of the gateway's notifications: what the app sent, shown as Herald decided.
extension NotificationGateway {
    /// Whether the notification of `key` is one of the gateway's.
    func owns(_ key: NotificationKey) -> Bool { records.id(for: key) != nil }

    /// The bubble heraldd's presenter shows for one of the gateway's notifications: the
    /// app's own name, icon, text, actions and hints, with Herald's urgency and sound.
    func bubble(_ bubble: Bubble) -> Bubble {
        guard case .notification(let key) = bubble.key, let id = records.id(for: key), let record = records[id] else { return bubble }
        let n = record.notification
        var adjusted = bubble
        var arguments = bubble.arguments
        arguments.appName = n.appName
        arguments.appIcon = n.appIcon
        arguments.summary = n.summary
        arguments.body = presenter.serverCapabilities.bodyMarkup ? n.body : BodyMarkup.plainText(n.body)
        arguments.expireTimeout = n.expireTimeout
        // The app's actions answer the app; Herald's own follow, unless the app took their keys.
        var actions = n.actions
        var keys: [String: String] = [:]
        for index in stride(from: 0, to: actions.count - 1, by: 2) { keys[actions[index]] = actions[index] }
        adjusted.snoozeKey = bubble.snoozeKey.flatMap { keys[$0] == nil ? $0 : nil }
        if let snooze = adjusted.snoozeKey { actions += [snooze, "Snooze 1 hour"] }
        if keys[NotificationMapping.muteConversationActionKey] != nil { adjusted.muteConversation = nil }
        if adjusted.muteConversation != nil { actions += [NotificationMapping.muteConversationActionKey, "Mute conversation 1 hour"] }
        arguments.actions = presenter.serverCapabilities.actions ? actions : []
        // Herald decides urgency and whether it sounds (the app's own sound when it does);
        // the other hints are the app's, and Herald's thread stacking is not applied.
        let decided: Set<String> = ["urgency", "suppress-sound", "sound-name", "x-dunst-stack-tag", "x-canonical-private-synchronous"]
        let silent = bubble.arguments.hint("suppress-sound") != nil
        var hints = bubble.arguments.hints.filter { $0.key == "urgency" || $0.key == "suppress-sound" }
        if !silent, let sound = n.hints["sound-name"] ?? bubble.arguments.hint("sound-name") { hints.append(("sound-name", sound)) }
        hints += n.hints.filter { !decided.contains($0.key) }.map { (key: $0.key, value: $0.value) }
        arguments.hints = hints
        adjusted.arguments = arguments
        adjusted.actionKeys = keys
        adjusted.thread = nil
        // The app's own images are its hints; a portal app's bytes icon is written to a file.
        adjusted.image = record.portal?.icon
        // KDE's inline reply (a renderer with the `inline-reply` capability shows a text
        // field for it): the typed text goes back to the app.
        adjusted.inlineReplyAction = keys[NotificationMapping.inlineReplyKey].map { _ in NotificationMapping.inlineReplyKey }
        return adjusted
    }
}
