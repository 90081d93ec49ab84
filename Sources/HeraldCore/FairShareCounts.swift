/// What the per-uid limits did since the daemon started: the `limits` member of `stats`.
package struct FairShareCounts: Sendable, Hashable {
    /// Interactions a uid evicted of its own, being at `--max-interactions-per-uid`.
    package var evictedAtUIDLimit = 0
    /// Interactions evicted at `--max-interactions`, each the oldest of the uid holding the most.
    package var evictedAtLimit = 0
    /// Donations and Focus requests refused for naming an app past `--max-apps-per-uid`.
    package var appsRefused = 0
    /// Silenced-conversation marks not made, their uid being at `--max-silenced-per-uid`.
    package var silencedMarksRefused = 0

    package init() {}
}
