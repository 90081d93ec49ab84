import FoundationEssentials
import HeraldProtocol

/// All of Herald's state, and the rules that change it: one value type, so a snapshot
/// is a cheap copy-on-write copy.
///
/// Every method takes the caller and `now` from outside — no clock, socket or file of
/// its own — so each rule runs in a unit test in microseconds. Each one validates its
/// params beyond their types, throws ``RuleError`` for a broken rule, and returns what
/// the journal records about its result. Who may call a method is its descriptor's, checked
/// before the method runs; a rule that depends on the params stays here.
package struct HeraldState: Sendable {
    /// The daemon's flags; not encoded (a restart takes them afresh).
    package var configuration: CoreConfiguration

    var interactions = InteractionStore()
    var focuses = FocusTable()
    var silenced = SilencedConversations()
    /// Each uid's scheduled summary; a uid without one holds no app for a summary.
    var summaries: [UInt32: SummarySchedule] = [:]
    /// A format 3 snapshot's host Focus and summary, until ``finishRestore()`` gives them
    /// to every uid; not encoded.
    var legacyHostSettings: LegacyHostSettings?
    var settings = AppSettings()
    var notifications = NotificationList()
    var categories = NotificationCategories()
    var pendingResponses = PendingResponses()
    var authorizationRequests = AuthorizationRequests()
    /// What the person removed, restorable within `--undo-window`.
    var recentlyRemoved = RecentlyRemoved()
    /// The conversations each uid muted or marked priority (`set-conversation`).
    var conversations = ConversationControls()
    /// Each uid's burst cooldown: its window (kept) and its bursts under way (not kept).
    var cooldowns = BurstCooldowns()
    /// Each uid's standing grants to its gateway; in memory only.
    var standingGrants = StandingGrants()

    /// Interactions evicted by `maxInteractions` or `maxInteractionsPerUID` since this
    /// value was made; not encoded.
    package var evictedCount: Int { fairShares.evictedAtUIDLimit + fairShares.evictedAtLimit }
    /// Interactions forgotten by `retention` since this value was made; not encoded.
    package private(set) var expiredCount = 0
    /// What the per-uid limits did since this value was made; not encoded.
    package internal(set) var fairShares = FairShareCounts()

    package init(configuration: CoreConfiguration = CoreConfiguration()) {
        self.configuration = configuration
    }

    /// How many interactions are stored.
    package var interactionCount: Int { interactions.count }

    /// When any uid's Focus changes next by itself (an `until`, a schedule's start or
    /// end), so that the server can wake then and tell subscribers.
    package var nextFocusChange: Date? { focuses.nextChange }

    /// Brings every uid's Focus up to `now`; true if any Focus changed since the changes
    /// were last taken (``takeFocusChanges()``).
    @discardableResult
    package mutating func advanceFocuses(now: Date) -> Bool {
        if let next = focuses.nextChange, now >= next {
            focuses.advanceAll(to: now, zone: zone)
        }
        return !focuses.pendingChanges.isEmpty
    }

    /// The changes of any uid's Focus in effect since the last call, oldest first, for
    /// the journal.
    package mutating func takeFocusChanges() -> [FocusChange] {
        focuses.takeChanges()
    }

    /// How many uids have a Focus on.
    package var focusOnCount: Int { focuses.onCount }

    /// The daemon's time zone, for schedules.
    var zone: ZoneRules { configuration.timeZone }

    /// What `(uid, app)` may know of `uid`'s Focus: nil unless that (uid, app) is
    /// authorized. For `focus-changed` notifications; reads, never changes.
    package func focusStatus(uid: UInt32, app: String, now: Date) -> FocusStatus? {
        focusView.focusStatus(uid: uid, app: app, now: now)
    }

    /// Forgets interactions donated more than `configuration.retention` seconds before
    /// `now`, delivered notifications delivered before then, responses made before then
    /// and still waiting for their app, and app names no interaction uses.
    ///
    /// At most `limit` interactions and notifications a call, interactions first: when
    /// `isComplete` is false, more have expired, and the rest (responses included) is for
    /// the next call. The daemon prunes in steps (``pruningStep``) and lets the lock go
    /// between them, so a start after a long stop, with most of the state expired, holds no
    /// request up for long. Responses go in one step: a queue holds few.
    @discardableResult
    package mutating func pruneExpired(now: Date, atMost limit: Int = .max) -> (pruned: Int, isComplete: Bool) {
        recentlyRemoved.prune(now: now, window: configuration.undoWindow)
        let cutoff = now.addingTimeInterval(-configuration.retention)
        var pruned = 0
        while let oldest = interactions.oldest, oldest.stored.donatedAt < cutoff {
            guard pruned < limit else {
                expiredCount += pruned
                return (pruned, false)
            }
            _ = interactions.removeOldest()
            pruned += 1
        }
        expiredCount += pruned
        let notificationsStep = notifications.pruneDelivered(before: cutoff, atMost: limit - pruned)
        pruned += notificationsStep.pruned
        guard notificationsStep.isComplete else { return (pruned, false) }
        pruned += pendingResponses.pruneResponded(before: cutoff)
        // A snapshot written before app names were forgotten with their last interaction
        // may hold unused ones; a scan of the table, which is small.
        interactions.pruneAppNames()
        interactions.noteEarliestDonation()
        return (pruned, true)
    }

    /// How many expired interactions the daemon forgets under one hold of the state's lock:
    /// as many as a deletion removes.
    package static let pruningStep = DeleteInteractionsMethod.deletionStep

    /// Evicts until `uid` holds at most `maxInteractionsPerUID` interactions (its own
    /// oldest) and the store at most `maxInteractions` (the oldest of the uid holding the
    /// most, `uid`'s own when it holds as many); hands what it evicted to `released`, to
    /// be freed after the state's lock.
    mutating func evictBeyondLimits(donor uid: UInt32, releasing released: inout ReleasedInteractions) {
        // Each record bound on its own, so that it moves on rather than being copied.
        while interactions.count(of: uid) > max(configuration.maxInteractionsPerUID, 0),
            case let (_, evicted)? = interactions.removeOldest(of: uid)
        {
            fairShares.evictedAtUIDLimit += 1
            released.add(evicted)
        }
        while interactions.count > max(configuration.maxInteractions, 0),
            let largest = interactions.largestShare(preferring: uid),
            case let (_, evicted)? = interactions.removeOldest(of: largest)
        {
            fairShares.evictedAtLimit += 1
            released.add(evicted)
        }
    }
}

/// Interactions a change removed from the state, kept until whoever holds this lets it
/// go after the state's lock: freeing a record (its strings and arrays) is work the lock
/// need not wait for. A donation evicts one at most, unless the limits were lowered.
package struct ReleasedInteractions: Sendable {
    private var first: StoredInteraction?
    private var others: [StoredInteraction] = []

    package init() {}

    mutating func add(_ stored: consuming StoredInteraction) {
        if first == nil {
            first = consume stored
        } else {
            others.append(stored)
        }
    }

    /// Holds `other`'s too.
    package mutating func add(_ other: consuming ReleasedInteractions) {
        if let stored = other.first.take() { add(stored) }
        others.append(contentsOf: other.others)
    }

    /// How many are held.
    package var count: Int { (first == nil ? 0 : 1) + others.count }
}
