/// What a notification server says it can do (`GetCapabilities`), in the words the
/// mapping needs.
public struct ServerCapabilities: Sendable, Hashable {
    public var names: Set<String>

    public init(_ names: some Sequence<String>) {
        self.names = Set(names)
    }

    /// Shows a body at all; without it only the summary is seen.
    public var body: Bool { names.contains("body") }
    /// Interprets `<b>`, `<i>` … in the body, so text must be escaped.
    public var bodyMarkup: Bool { names.contains("body-markup") }
    public var actions: Bool { names.contains("actions") }
    /// Takes action keys as icon names when the `action-icons` hint is set.
    public var actionIcons: Bool { names.contains("action-icons") }
    public var sound: Bool { names.contains("sound") }
}
