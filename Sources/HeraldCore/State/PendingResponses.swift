import FoundationEssentials
import HeraldProtocol

/// Responses made while no connection of their (uid, app) was subscribed, waiting for the
/// app's next `subscribe-responses` — as the system launches an app to hand it a response.
///
/// Bounded per tenant: at most ``maxPerApp`` per (uid, app), the oldest dropped first and
/// counted (the app is told how many when it subscribes); and responses wait for at most
/// `maxAppsPerUID` apps of one uid — a response for one more app is dropped and counted
/// in ``refusedForAppLimit``. A response waits at most `--retention`, like a delivered
/// notification (``pruneResponded(before:)``); one that expires counts as dropped.
struct PendingResponses: Sendable {
    static let maxPerApp = 100

    struct Key: Hashable, Sendable {
        var uid: UInt32
        var app: String
    }

    struct Queue: Sendable {
        /// Oldest first.
        var responses: [NotificationResponse] = []
        /// Dropped since the app last subscribed.
        var dropped = 0
    }

    private var queues: [Key: Queue] = [:]
    private var appCounts: [UInt32: Int] = [:]
    /// No later than the oldest waiting response's `respondedAt`; nil when none wait. A
    /// prune looks at the queues only once it has passed.
    private(set) var earliest: Date?
    /// Responses dropped at ``maxPerApp`` since this value was made; not encoded.
    private(set) var droppedAtLimit = 0
    /// Responses dropped because their uid already had responses waiting for `maxAppsPerUID` apps; not encoded.
    private(set) var refusedForAppLimit = 0

    init() {}

    /// How many responses wait, for every (uid, app) together.
    var count: Int { queues.values.reduce(0) { $0 + $1.responses.count } }

    /// How many responses wait for `uid`'s apps together.
    func count(of uid: UInt32) -> Int {
        queues.reduce(0) { $0 + ($1.key.uid == uid ? $1.value.responses.count : 0) }
    }

    /// Keeps `response` for (uid, app), dropping its oldest past ``maxPerApp``; false when
    /// the uid's apps are at `maxApps` and it was dropped.
    @discardableResult
    mutating func append(_ response: NotificationResponse, uid: UInt32, maxApps: Int) -> Bool {
        let key = Key(uid: uid, app: response.app)
        if queues[key] == nil {
            guard appCounts[uid, default: 0] < max(maxApps, 1) else {
                refusedForAppLimit += 1
                return false
            }
            appCounts[uid, default: 0] += 1
        }
        queues[key, default: Queue()].responses.append(response)
        noteWaiting(response)
        if queues[key]!.responses.count > Self.maxPerApp {
            queues[key]!.responses.removeFirst()
            queues[key]!.dropped += 1
            droppedAtLimit += 1
        }
        return true
    }

    /// How many responses wait for (uid, app), left where they are.
    func waiting(uid: UInt32, app: String) -> Int {
        queues[Key(uid: uid, app: app)]?.responses.count ?? 0
    }

    /// Takes (uid, app)'s waiting responses, oldest first, and how many were dropped.
    mutating func take(uid: UInt32, app: String) -> Queue {
        guard let queue = queues.removeValue(forKey: Key(uid: uid, app: app)) else { return Queue() }
        if let count = appCounts[uid], count > 1 { appCounts[uid] = count - 1 } else { appCounts[uid] = nil }
        return queue
    }

    /// Restores a queue from a snapshot; false when (uid, app) comes twice.
    mutating func restore(_ queue: Queue, uid: UInt32, app: String) -> Bool {
        let key = Key(uid: uid, app: app)
        guard queues[key] == nil else { return false }
        queues[key] = queue
        appCounts[uid, default: 0] += 1
        queue.responses.forEach { noteWaiting($0) }
        return true
    }

    /// Drops the responses made before `cutoff` (`--retention`), each counted in its
    /// queue's `dropped`, which the app is told when it subscribes; returns how many.
    mutating func pruneResponded(before cutoff: Date) -> Int {
        guard let earliest, earliest < cutoff else { return 0 }
        self.earliest = nil
        var pruned = 0
        for key in Array(queues.keys) {
            let waiting = queues[key]!.responses.count
            queues[key]!.responses.removeAll { $0.respondedAt < cutoff }
            let removed = waiting - queues[key]!.responses.count
            queues[key]!.dropped += removed
            pruned += removed
            queues[key]!.responses.forEach { noteWaiting($0) }
        }
        return pruned
    }

    private mutating func noteWaiting(_ response: NotificationResponse) {
        earliest = min(earliest ?? response.respondedAt, response.respondedAt)
    }

    /// Every queue, sorted by (uid, app), for a snapshot.
    var sorted: [(uid: UInt32, app: String, queue: Queue)] {
        queues.map { (uid: $0.key.uid, app: $0.key.app, queue: $0.value) }.sorted { ($0.uid, $0.app) < ($1.uid, $1.app) }
    }
}
