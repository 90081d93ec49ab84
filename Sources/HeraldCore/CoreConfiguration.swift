import FoundationEssentials

/// The daemon's settings that the rules depend on, set from its command line.
///
/// Not part of the state a snapshot keeps: a restarted daemon takes its flags afresh.
package struct CoreConfiguration: Sendable {
    /// What asking for Focus authorization does while nobody has decided
    /// (`--focus-authorization`).
    package var focusAuthorizationPolicy: FocusAuthorizationPolicy
    /// How close, in seconds, a second call from the same caller must follow the first to
    /// break through a Focus that allows repeated calls (`--repeated-call-window`).
    package var repeatedCallWindow: TimeInterval
    /// The zone of the summary's and the Focus schedules' `"HH:MM"` times.
    package var timeZone: ZoneRules
    /// The most interactions kept (`--max-interactions`). Reached, a donation evicts the
    /// oldest interaction of the uid holding the most — its donor's own when the donor
    /// holds as many, else the lowest uid's of those holding as many — so a uid holding no
    /// more than an equal share is never evicted by another's donations.
    package var maxInteractions: Int
    /// The most interactions one uid holds (`--max-interactions-per-uid`); a uid at it
    /// evicts its own oldest, never another's.
    package var maxInteractionsPerUID: Int
    /// The most apps one uid holds interactions of, and the most it holds settings of
    /// (`--max-apps-per-uid`); a new app past it is refused with -32602.
    package var maxAppsPerUID: Int
    /// The most silenced-conversation marks one uid holds in a Focus activation
    /// (`--max-silenced-per-uid`); past it no new mark is made for that uid.
    package var maxSilencedMarksPerUID: Int
    /// How long, in seconds, an interaction is kept after its donation (`--retention`).
    package var retention: TimeInterval
    /// The most notifications one uid's list holds (`--max-notifications`): a new one past
    /// it evicts the uid's oldest delivered; a list of scheduled ones only refuses it.
    package var maxNotificationsPerUID = 10_000
    /// The most bytes one uid's list holds, as ``NotificationBytes`` weighs its notifications
    /// and ``NotificationSearchIndex/weight(of:)`` their search documents
    /// (`--max-notification-bytes`): past it the uid's oldest delivered go; a notification
    /// that would not fit beside the scheduled ones, or alone, is refused.
    package var maxNotificationBytesPerUID = 32 << 20
    /// How long, in seconds, a notification the person removed can be restored
    /// (`--undo-window`); 0 keeps none.
    package var undoWindow: TimeInterval = 600
    /// The most conversations one uid mutes or marks priority at once (`set-conversation`):
    /// past it a new one is refused with -32602.
    package var maxConversationsPerUID = 1_000

    package init(
        focusAuthorizationPolicy: FocusAuthorizationPolicy = .prompt,
        repeatedCallWindow: TimeInterval = 180,
        timeZone: ZoneRules = .current,
        maxInteractions: Int = 1_000_000,
        retention: TimeInterval = 30 * 24 * 3600,
        maxInteractionsPerUID: Int = 500_000,
        maxAppsPerUID: Int = 256,
        maxSilencedMarksPerUID: Int = 10_000
    ) {
        self.focusAuthorizationPolicy = focusAuthorizationPolicy
        self.repeatedCallWindow = repeatedCallWindow
        self.timeZone = timeZone
        self.maxInteractions = maxInteractions
        self.retention = retention
        self.maxInteractionsPerUID = maxInteractionsPerUID
        self.maxAppsPerUID = maxAppsPerUID
        self.maxSilencedMarksPerUID = maxSilencedMarksPerUID
    }
}

/// What `request-focus` with `requestAuthorization` does for an app nobody has decided
/// about — the prompt a phone would show.
package enum FocusAuthorizationPolicy: String, Sendable, Hashable, CaseIterable {
    /// Stays `notDetermined` until an administrator calls `set-focus-authorization`.
    case prompt
    /// Becomes `authorized`.
    case allow
    /// Becomes `denied`.
    case deny
}
