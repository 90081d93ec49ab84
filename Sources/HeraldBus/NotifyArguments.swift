/// The arguments of `org.freedesktop.Notifications.Notify`
/// (`susssasa{sv}i`), in the specification's order.
package struct NotifyArguments: Sendable, Hashable {
    package var appName: String
    /// The server's id of the bubble this one replaces; 0 for a new bubble.
    package var replacesID: UInt32
    package var appIcon: String
    package var summary: String
    package var body: String
    /// Pairs of (action key, label), flattened as the specification sends them.
    package var actions: [String]
    /// In a fixed order, so tests and logs read the same each time.
    package var hints: [(key: String, value: BusValue)]
    /// Milliseconds; -1 lets the server decide, 0 never expires.
    package var expireTimeout: Int32

    package init(
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
    package func hint(_ key: String) -> BusValue? {
        hints.first { $0.key == key }?.value
    }

    package static func == (lhs: NotifyArguments, rhs: NotifyArguments) -> Bool {
        lhs.appName == rhs.appName && lhs.replacesID == rhs.replacesID && lhs.appIcon == rhs.appIcon
            && lhs.summary == rhs.summary && lhs.body == rhs.body && lhs.actions == rhs.actions
            && lhs.hints.map(\.key) == rhs.hints.map(\.key) && lhs.hints.map(\.value) == rhs.hints.map(\.value)
            && lhs.expireTimeout == rhs.expireTimeout
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(appName)
        hasher.combine(replacesID)
        hasher.combine(summary)
        hasher.combine(body)
    }
}
