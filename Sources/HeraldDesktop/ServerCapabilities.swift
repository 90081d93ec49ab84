/// What a notification server says it can do (`GetCapabilities`), in the words the
/// mapping needs.
package struct ServerCapabilities: Sendable, Hashable {
    package var names: Set<String>

    package init(_ names: some Sequence<String>) {
        self.names = Set(names)
    }

    /// Shows a body at all; without it only the summary is seen.
    package var body: Bool { names.contains("body") }
    /// Interprets `<b>`, `<i>` … in the body, so text must be escaped.
    package var bodyMarkup: Bool { names.contains("body-markup") }
    package var actions: Bool { names.contains("actions") }
    /// Takes action keys as icon names when the `action-icons` hint is set.
    package var actionIcons: Bool { names.contains("action-icons") }
    package var sound: Bool { names.contains("sound") }
    /// dunst's `x-dunst-stack-tag`: a bubble of the same tag (and app name) replaces the last.
    package var stackTag: Bool { names.contains("x-dunst-stack-tag") }
    /// Ubuntu's (notify-osd's) `x-canonical-private-synchronous`, the same for other servers.
    package var privateSynchronous: Bool { names.contains("x-canonical-private-synchronous") }
    /// KDE Plasma's inline reply: an `inline-reply` action shows a text field, and the
    /// text comes back as `NotificationReplied`.
    package var inlineReply: Bool { names.contains("inline-reply") }
}
