/// What kinds of notification an app may post — the entitlements of the seeds.
///
/// Defaults: communication and timeSensitive on, critical off.
public struct Capabilities: Codable, Sendable, Hashable {
    /// Without it, `update-content` with an interaction is error 1005.
    public var communication: Bool
    /// Without it, a timeSensitive notification is treated as active.
    public var timeSensitive: Bool
    /// Without it, a critical notification is error 1005.
    public var critical: Bool

    public init(communication: Bool = true, timeSensitive: Bool = true, critical: Bool = false) {
        self.communication = communication
        self.timeSensitive = timeSensitive
        self.critical = critical
    }

    public static let defaults = Capabilities()
}
