/// The arguments of `org.freedesktop.Notifications.Notify`
/// (`susssasa{sv}i`), in the specification's order.
public struct NotifyArguments: Sendable, Hashable {
    public var appName: String
    /// The server's id of the bubble this one replaces; 0 for a new bubble.
    public var replacesID: UInt32
    public var appIcon: String
    public var summary: String
    public var body: String
    /// Pairs of (action key, label), flattened as the specification sends them.
    public var actions: [String]
    /// In a fixed order, so tests and logs read the same each time.
    public var hints: [(key: String, value: BusValue)]
    /// Milliseconds; -1 lets the server decide, 0 never expires.
    public var expireTimeout: Int32

    public init(
        appName: String,
        replacesID: UInt32 = 0,
        appIcon: String = "",
        summary: String,
        body: String = "",
        actions: [String] = [],
        hints: [(key: String, value: BusValue)] = [],
        expireTimeout: Int32 = -1
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }

    /// The hint named `key`, if set.
    public func hint(_ key: String) -> BusValue? {
        hints.first { $0.key == key }?.value
    }

    public static func == (lhs: NotifyArguments, rhs: NotifyArguments) -> Bool {
        lhs.appName == rhs.appName && lhs.replacesID == rhs.replacesID && lhs.appIcon == rhs.appIcon
            && lhs.summary == rhs.summary && lhs.body == rhs.body && lhs.actions == rhs.actions
            && lhs.hints.map(\.key) == rhs.hints.map(\.key) && lhs.hints.map(\.value) == rhs.hints.map(\.value)
            && lhs.expireTimeout == rhs.expireTimeout
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(appName)
        hasher.combine(replacesID)
        hasher.combine(summary)
        hasher.combine(body)
    }
}
