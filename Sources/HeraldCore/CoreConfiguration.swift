import Foundation

/// The daemon's settings that the rules depend on, set from its command line.
///
/// Not part of the state a snapshot keeps: a restarted daemon takes its flags afresh.
public struct CoreConfiguration: Sendable {
    /// What asking for Focus authorization does while nobody has decided
    /// (`--focus-authorization`).
    public var focusAuthorizationPolicy: FocusAuthorizationPolicy
    /// How close, in seconds, a second call from the same caller must follow the first to
    /// break through a Focus that allows repeated calls (`--repeated-call-window`).
    public var repeatedCallWindow: TimeInterval
    /// The zone of the summary's `"HH:MM"` times.
    public var timeZone: TimeZone
    /// The most interactions kept; the oldest donations are evicted first
    /// (`--max-interactions`).
    public var maxInteractions: Int
    /// How long, in seconds, an interaction is kept after its donation (`--retention`).
    public var retention: TimeInterval

    public init(
        focusAuthorizationPolicy: FocusAuthorizationPolicy = .prompt,
        repeatedCallWindow: TimeInterval = 180,
        timeZone: TimeZone = .current,
        maxInteractions: Int = 1_000_000,
        retention: TimeInterval = 30 * 24 * 3600
    ) {
        self.focusAuthorizationPolicy = focusAuthorizationPolicy
        self.repeatedCallWindow = repeatedCallWindow
        self.timeZone = timeZone
        self.maxInteractions = maxInteractions
        self.retention = retention
    }
}

/// What `request-focus` with `requestAuthorization` does for an app nobody has decided
/// about — the prompt a phone would show.
public enum FocusAuthorizationPolicy: String, Sendable, Hashable, CaseIterable {
    /// Stays `notDetermined` until an administrator calls `set-focus-authorization`.
    case prompt
    /// Becomes `authorized`.
    case allow
    /// Becomes `denied`.
    case deny
}
