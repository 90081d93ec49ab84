/// Why a notification server closed a bubble (`NotificationClosed`'s second argument).
package struct NotificationClosedReason: RawRepresentable, Sendable, Hashable {
    package var rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let expired = Self(rawValue: 1)
    /// The person dismissed it.
    package static let dismissed = Self(rawValue: 2)
    /// A `CloseNotification` call closed it.
    package static let closedByCall = Self(rawValue: 3)
    package static let undefined = Self(rawValue: 4)
}
