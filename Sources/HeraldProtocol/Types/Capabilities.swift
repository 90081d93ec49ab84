/// What kinds of notification an app may post — the entitlements of the seeds.
///
/// Defaults: communication and timeSensitive on, critical off.
package struct Capabilities: Codable, Sendable, Hashable {
    /// Without it, `update-content` with an interaction is error 1005.
    package var communication: Bool
    /// Without it, a timeSensitive notification is treated as active.
    package var timeSensitive: Bool
    /// Without it, a critical notification is error 1005.
    package var critical: Bool

    package init(communication: Bool = true, timeSensitive: Bool = true, critical: Bool = false) {
        self.communication = communication
        self.timeSensitive = timeSensitive
        self.critical = critical
    }

    package static let defaults = Capabilities()
}
