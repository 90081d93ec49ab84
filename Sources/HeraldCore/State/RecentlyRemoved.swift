import FoundationEssentials
import HeraldProtocol

/// The notifications each uid's person removed, kept for `--undo-window` so that
/// `restore-notifications` can put them back as they were — what no freedesktop server
/// can do, since a closed notification is gone for its client (mako#525).
///
/// Bounded per uid: at most ``maxPerUID`` notifications, weighing at most the byte limit
/// given (a quarter of `--max-notification-bytes`, as ``NotificationBytes`` weighs them);
/// past either, the longest removed go first, and of one removal larger than the bound its
/// oldest received. Each uid's removals are kept in the order they were made (by
/// ``Removal/number``), so that trimming takes from the front and "the last removal" is
/// the back. Their times only say when each expires: the wall clock may step back between
/// two removals (NTP, a person setting the time), so no order is read from them.
struct RecentlyRemoved: Sendable {
    static let maxPerUID = RestoreNotificationsParams.maximumIdentifiers

    /// One removed notification.
    struct Removal: Sendable, Hashable {
        /// Which removal it was part of: one `remove-notifications` call's share a number.
        var number: UInt64
        var removedAt: Date
        /// As it was in the list: its state there, its delivery reasons; no actions.
        var notification: HeraldNotification
        var bytes: Int

        func isExpired(now: Date, window: TimeInterval) -> Bool { removedAt + window <= now }
    }

    private var removals: [UInt32: [Removal]] = [:]
    private var bytes: [UInt32: Int] = [:]
    private(set) var lastNumber: UInt64 = 0
    /// No removal is older than this; nil when none is kept. A prune looks no further until
    /// the window has passed it.
    private(set) var earliest: Date?

    init() {}

    /// How many notifications every uid's removals hold together.
    var count: Int { removals.values.reduce(0) { $0 + $1.count } }

    /// Keeps `notifications`, oldest received first, as one removal of `uid`'s at `now`. An
    /// earlier removal of the same (app, identifier) is superseded: restored, it would
    /// bring back an older copy.
    mutating func keep(_ notifications: [HeraldNotification], uid: UInt32, now: Date, byteLimit: Int) {
        guard !notifications.isEmpty else { return }
        lastNumber += 1
        let number = lastNumber
        var list = removals.removeValue(forKey: uid) ?? []
        var weight = bytes[uid] ?? 0
        let incoming = Set(notifications.map { Key($0) })
        list.removeAll { removal in
            guard incoming.contains(Key(removal.notification)) else { return false }
            weight -= removal.bytes
            return true
        }
        for notification in notifications {
            let size = NotificationBytes.of(identifier: notification.identifier, content: notification.content)
            list.append(Removal(number: number, removedAt: now, notification: notification, bytes: size))
            weight += size
        }
        var dropped = 0
        while list.count - dropped > Self.maxPerUID || (weight > byteLimit && dropped < list.count) {
            weight -= list[dropped].bytes
            dropped += 1
        }
        list.removeFirst(dropped)
        store(list, weight: weight, uid: uid)
        earliest = min(earliest ?? now, now)
    }

    /// Frees every removal older than `window` at `now` (all of them for a window of 0).
    /// Every one is looked at, not only the front: after the clock stepped back, a later
    /// removal may be the older by its time.
    mutating func prune(now: Date, window: TimeInterval) {
        guard let earliest, earliest + window <= now else { return }
        self.earliest = nil
        for uid in Array(removals.keys) {
            var list = removals.removeValue(forKey: uid)!
            var weight = bytes[uid]!
            list.removeAll { removal in
                guard removal.isExpired(now: now, window: window) else { return false }
                weight -= removal.bytes
                return true
            }
            store(list, weight: weight, uid: uid)
            noteEarliest(of: list)
        }
    }

    /// `uid`'s removals of `app` (every app's when nil), most recently removed first.
    func newestFirst(uid: UInt32, app: String?) -> [Removal] {
        (removals[uid] ?? []).reversed().filter { app == nil || $0.notification.app == app }
    }

    /// Takes `uid`'s last removal, whole (what is left of it), oldest received first.
    mutating func takeLast(uid: UInt32) -> [Removal] {
        guard var list = removals.removeValue(forKey: uid), let number = list.last?.number else { return [] }
        let count = list.reversed().prefix { $0.number == number }.count
        let taken = Array(list.suffix(count))
        list.removeLast(count)
        store(list, weight: bytes[uid]! - taken.reduce(0) { $0 + $1.bytes }, uid: uid)
        return taken
    }

    /// Takes `uid`'s removed notifications of `app` with these identifiers, in the order
    /// asked: one pass over the uid's removals, whatever the number of identifiers.
    mutating func take(uid: UInt32, app: String, identifiers: [String]) -> [Removal] {
        guard var list = removals.removeValue(forKey: uid) else { return [] }
        var order: [String: Int] = [:]
        for (position, identifier) in identifiers.enumerated() where order[identifier] == nil { order[identifier] = position }
        var taken: [(position: Int, removal: Removal)] = []
        list.removeAll { removal in
            guard removal.notification.app == app, let position = order.removeValue(forKey: removal.notification.identifier) else {
                return false
            }
            taken.append((position, removal))
            return true
        }
        taken.sort { $0.position < $1.position }
        store(list, weight: bytes[uid]! - taken.reduce(0) { $0 + $1.removal.bytes }, uid: uid)
        return taken.map(\.removal)
    }

    /// Puts back removals taken and not restored (``take(uid:app:identifiers:)``,
    /// ``takeLast(uid:)``), as they were: each after the kept ones of its removal and
    /// before the later removals, so that it stays restorable, and in the same removal.
    mutating func putBack(_ taken: [Removal], uid: UInt32) {
        guard !taken.isEmpty else { return }
        let kept = removals.removeValue(forKey: uid) ?? []
        var list: [Removal] = []
        list.reserveCapacity(kept.count + taken.count)
        var next = kept.startIndex
        for removal in taken.sorted(by: { $0.number < $1.number }) {
            while next < kept.endIndex, kept[next].number <= removal.number {
                list.append(kept[next])
                next += 1
            }
            list.append(removal)
        }
        list.append(contentsOf: kept[next...])
        store(list, weight: (bytes[uid] ?? 0) + taken.reduce(0) { $0 + $1.bytes }, uid: uid)
        noteEarliest(of: taken)
    }

    private mutating func noteEarliest(of list: [Removal]) {
        for removal in list { earliest = min(earliest ?? removal.removedAt, removal.removedAt) }
    }

    private mutating func store(_ list: [Removal], weight: Int, uid: UInt32) {
        removals[uid] = list.isEmpty ? nil : list
        bytes[uid] = list.isEmpty ? nil : weight
    }

    private struct Key: Hashable {
        var app: String
        var identifier: String

        init(_ notification: HeraldNotification) {
            app = notification.app
            identifier = notification.identifier
        }
    }

    // MARK: Snapshots

    /// Every uid's removals, in the order removed, by uid.
    var sorted: [(uid: UInt32, removals: [Removal])] {
        removals.keys.sorted().map { ($0, removals[$0]!) }
    }

    /// Restores one uid's removals from a snapshot; false when the uid comes twice or has
    /// none. They are put in the order of their removals, whatever their times (a build
    /// before issue 49 refused a snapshot whose times were out of order, and so lost the
    /// whole state to a clock stepped back), and past ``maxPerUID`` the oldest go, as
    /// ``keep(_:uid:now:byteLimit:)`` would have dropped them.
    mutating func restore(_ list: [Removal], uid: UInt32) -> Bool {
        guard removals[uid] == nil, !list.isEmpty else { return false }
        var list = list.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }.map(\.element)
        list.removeFirst(max(0, list.count - Self.maxPerUID))
        store(list, weight: list.reduce(0) { $0 + $1.bytes }, uid: uid)
        lastNumber = max(lastNumber, list.last!.number)
        noteEarliest(of: list)
        return true
    }
}
