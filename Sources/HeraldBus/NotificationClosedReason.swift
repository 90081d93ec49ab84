/// Why a notification server closed a bubble (`NotificationClosed`'s second argument).
public struct NotificationClosedReason: RawRepresentable, Sendable, Hashable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let expired = Self(rawValue: 1)
    /// The person dismissed it.
    public static let dismissed = Self(rawValue: 2)
    /// A `CloseNotification` call closed it.
    public static let closedByCall = Self(rawValue: 3)
    public static let undefined = Self(rawValue: 4)
}
