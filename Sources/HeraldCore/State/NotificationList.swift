import FoundationEssentials
import HeraldProtocol

/// Every uid's notification list: what `update-content` decided, delivered or scheduled,
/// until it is removed, evicted or expired. "All notifications delivered to the summary on
/// a schedule are present in the notification list"; passive ones "are available the next
/// time the list is viewed".
///
/// Keyed by (uid, app, identifier): the same key again replaces the earlier notification,
/// as a `UNNotificationRequest` with an identifier in use does. Each uid's delivered ones
/// are also queued in the order they were delivered, so that the oldest delivered goes
/// first at `--max-notifications`, `--max-notification-bytes` and `--retention` in
/// amortized constant time.
struct NotificationList: Sendable {
    struct Key: Hashable, Sendable {
        /// The app's number in its uid's ``UIDList/apps``.
        let app: AppNameTable.ID
        let identifier: String
        /// Hashed once, when the key is made. A lookup in a list of thousands probes
        /// several keys: comparing this first spares reading the identifier's storage
        /// (seldom in cache) for every key that is not the one sought, and the keys that
        /// `deliveredOrder` keeps are looked up again without hashing their strings.
        private let hash: Int

        init(app: AppNameTable.ID, identifier: String) {
            var hasher = Hasher()
            hasher.combine(app)
            hasher.combine(identifier)
            self.app = app
            self.identifier = identifier
            self.hash = hasher.finalize()
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && lhs.app == rhs.app && lhs.identifier == rhs.identifier
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    /// A notification as the list keeps it, with its place in the list. Its app is a
    /// number of its uid's app table, its state is whether it has a `deliveredStamp`, and
    /// its delivery reasons share one array with the notifications decided alike: at
    /// `--max-notifications` (10,000 a uid) every kept notification is one more set of
    /// allocations that live until it is evicted, and `update-content`'s cost grows with them.
    struct Entry: Sendable {
        var identifier: String
        var app: AppNameTable.ID
        /// Behind one reference: a table moves its entries as it changes (a removal shifts
        /// the entries after it, a new one is moved in, a resize moves them all), and the
        /// content is three quarters of an entry's bytes.
        private let keptContent: KeptContent
        var delivery: Delivery
        var receivedAt: Date
        var deliveredAt: Date?
        /// The order it came in: a larger stamp is newer.
        var stamp: UInt64
        /// Its place in ``UIDList/deliveredOrder`` while delivered; nil while scheduled.
        var deliveredStamp: UInt64?
        /// What it weighs (``NotificationBytes``) with its search document
        /// (``NotificationSearchIndex/weight(of:)``), counted in its list's ``UIDList/bytes``.
        var bytes: Int
        /// Its document in its list's ``UIDList/search``.
        var searchDocument: NotificationSearchIndex.DocumentNumber = 0
        /// While the person has put it off: when it comes back, delivered again.
        var snoozedUntil: Date?

        init(
            identifier: String, app: AppNameTable.ID, content: NotificationContent, delivery: Delivery, receivedAt: Date,
            deliveredAt: Date?, stamp: UInt64, bytes: Int
        ) {
            self.identifier = identifier
            self.app = app
            self.keptContent = KeptContent(content)
            self.delivery = delivery
            self.receivedAt = receivedAt
            self.deliveredAt = deliveredAt
            self.stamp = stamp
            self.bytes = bytes
        }

        var content: NotificationContent { keptContent.content }

        var state: NotificationState { deliveredStamp != nil ? .delivered : snoozedUntil != nil ? .snoozed : .scheduled }

        /// Its place in the order `list-notifications` lists: newest received first.
        var place: NotificationCursor { NotificationCursor(receivedAt: receivedAt, stamp: stamp) }

        /// The notification, its app named `app` (the name of ``app`` in its uid's table).
        func notification(app name: String) -> HeraldNotification {
            HeraldNotification(
                identifier: identifier, app: name, content: content, delivery: delivery, state: state,
                receivedAt: receivedAt, deliveredAt: deliveredAt, snoozedUntil: snoozedUntil
            )
        }
    }

    /// A kept notification's content, which never changes: a replacement is a new entry.
    final class KeptContent: Sendable {
        let content: NotificationContent

        init(_ content: NotificationContent) {
            self.content = content
        }
    }

    /// A list's readers: only its identity counts (``UIDList/readers``).
    final class Readers: Sendable {}

    /// An entry taken out of a list, with its app's name (its number may be reused at once).
    struct Removed: Sendable {
        let entry: Entry
        let app: String

        var notification: HeraldNotification { entry.notification(app: app) }
    }

    /// One uid's list.
    struct UIDList: Sendable {
        var entries: [Key: Entry] = [:]
        /// The apps of `entries`, each counted once per entry.
        var apps = AppNameTable()
        /// Delivered notifications, oldest delivered first, from `head` on. An element
        /// whose stamp no longer matches its entry's `deliveredStamp` is stale (the entry
        /// was removed, replaced or scheduled again) and is skipped.
        var deliveredOrder: [(stamp: UInt64, key: Key)] = []
        var head = 0
        var deliveredCount = 0
        /// What its entries weigh together, and its delivered ones: their search documents
        /// included, so that `--max-notification-bytes` bounds the index too.
        var bytes = 0
        var deliveredBytes = 0
        /// Its entries by the words they are found by.
        var search = NotificationSearchIndex()
        /// Held by each view of this list (a search, a listing, read after the state's
        /// lock) as well as by the list: while it is not uniquely referenced, a change to the
        /// list would copy its storage, and the server copies it after the lock first.
        var readers = Readers()

        /// This list with storage of its own, nothing shared with a reader: made after the
        /// state's lock (issue 49, finding 4), linear in the list and its index.
        func unshared() -> UIDList {
            var copy = self
            copy.entries.reserveCapacity(entries.count)
            copy.apps = apps.unshared()
            copy.deliveredOrder.reserveCapacity(deliveredOrder.count)
            copy.search = search.unshared()
            copy.readers = Readers()
            return copy
        }

        /// This list as a snapshot reads it (``NotificationList/storedOrder()``): its
        /// entries and apps, with no search index, delivered order or readers of the live
        /// list's. Those are the live list's alone again once the copy is made, so the
        /// changes after it copy only the entries, once, rather than the index, whose every
        /// add would copy each list of postings it touches until the snapshot is written.
        func forSnapshot() -> UIDList {
            var copy = self
            copy.deliveredOrder = []
            copy.head = 0
            copy.search = NotificationSearchIndex.none
            copy.readers = Readers()
            return copy
        }

        /// Whether a reader holds this list's storage; forgets the readers so that the
        /// change about to copy it counts once.
        mutating func takeReaders() -> Bool {
            guard !isKnownUniquelyReferenced(&readers) else { return false }
            readers = Readers()
            return true
        }

        /// When the oldest delivered notification was delivered, without passing stale
        /// elements: a look that changes nothing.
        func oldestDeliveredAt() -> Date? {
            var position = head
            while position < deliveredOrder.count {
                let (stamp, key) = deliveredOrder[position]
                if let entry = entries[key], entry.deliveredStamp == stamp { return entry.deliveredAt }
                position += 1
            }
            return nil
        }

        /// The oldest delivered notification's key, skipping stale elements.
        mutating func oldestDelivered() -> Key? {
            oldestDeliveredIndex().map { entries.keys[$0] }
        }

        /// Where the oldest delivered notification is in `entries`, skipping stale elements.
        mutating func oldestDeliveredIndex() -> [Key: Entry].Index? {
            while head < deliveredOrder.count {
                let (stamp, key) = deliveredOrder[head]
                if let index = entries.index(forKey: key), entries.values[index].deliveredStamp == stamp { return index }
                head += 1
            }
            return nil
        }

        /// Drops the consumed and stale part of `deliveredOrder` once it outweighs the rest,
        /// in place: a list at `--max-notifications` does this every few thousand calls.
        mutating func compactIfWasteful() {
            let waste = deliveredOrder.count - deliveredCount
            guard waste > 64, waste > deliveredCount else { return }
            deliveredOrder.removeSubrange(..<head)
            head = 0
            // Each delivered entry has one element from `head` on: as many elements as
            // delivered entries means none is stale, and no key need be looked up (a list
            // evicting at its limit, replacing nothing).
            guard deliveredOrder.count > deliveredCount else { return }
            let entries = entries
            deliveredOrder.removeAll { element in
                guard let index = entries.index(forKey: element.key) else { return true }
                return entries.values[index].deliveredStamp != element.stamp
            }
        }

        /// The key of (`app`, `identifier`); nil when no entry of this list has that app.
        func key(app: String, identifier: String) -> Key? {
            apps.id(of: app).map { Key(app: $0, identifier: identifier) }
        }

        mutating func remove(_ key: Key) -> Removed? {
            guard let index = entries.index(forKey: key) else { return nil }
            return remove(at: index)
        }

        mutating func remove(at index: [Key: Entry].Index) -> Removed {
            let entry = entries.remove(at: index).value
            bytes -= entry.bytes
            if let stamp = entry.deliveredStamp {
                deliveredCount -= 1
                deliveredBytes -= entry.bytes
                // The oldest delivered, evicted: its element is passed at once rather than
                // left stale at the head, where a compaction would look every key up.
                if head < deliveredOrder.count, deliveredOrder[head].stamp == stamp { head += 1 }
            }
            let app = apps.name(of: entry.app)
            apps.release(entry.app)
            search.remove(entry.searchDocument)
            compactIfWasteful()
            compactSearchIfWasteful()
            return Removed(entry: entry, app: app)
        }

        /// Puts `entry` in the search index, as the document of `key`, and adds the
        /// document's weight to the entry's.
        mutating func index(_ entry: inout Entry, key: Key) {
            let document = search.add(key: key, place: entry.place, content: entry.content)
            entry.searchDocument = document.number
            entry.bytes += document.bytes
        }

        /// Drops the search index's gone documents once they outweigh the rest, and gives
        /// every entry its document's new number: linear in the index, every so many removals.
        mutating func compactSearchIfWasteful() {
            guard search.isWasteful else { return }
            let renumbered = search.compact()
            // Walked by index, not `entries.indices`, which would hold a second reference
            // to the table and make the first change copy all of it.
            var index = entries.startIndex
            while index != entries.endIndex {
                entries.values[index].searchDocument = renumbered[Int(entries.values[index].searchDocument)]!
                entries.formIndex(after: &index)
            }
        }
    }

    private(set) var lists: [UInt32: UIDList] = [:]
    var nextStamp: UInt64 = 0
    /// No scheduled notification is due before this (a lower bound: removals do not raise it).
    private(set) var earliestDeliverAt: Date?
    /// No snoozed notification comes back before this (a lower bound, as `earliestDeliverAt`).
    var earliestSnoozeEnd: Date?

    /// The reasons of the last notification put in a list: the next one decided alike keeps
    /// this array rather than one of its own (most reasons are whole literal sentences,
    /// compared without reading their bytes).
    private var lastReasons: [DeliveryReason] = []

    /// Changes that found their list held by a reader, and so copied its storage under the
    /// state's lock: none while the server unshares a list before changing it; not encoded.
    private(set) var copiesWhileRead = 0

    /// Delivered notifications evicted at `--max-notifications`; not encoded.
    private(set) var evicted = 0
    /// Delivered notifications forgotten by `--retention`; not encoded.
    private(set) var expired = 0

    init() {}

    /// Every uid's list as a snapshot reads it (``UIDList/forSnapshot()``): for the copy a
    /// snapshot takes under the state's lock, in time linear in the uids (the table's
    /// layout kept, nothing hashed again).
    func forSnapshot() -> NotificationList {
        var copy = self
        copy.lists = lists.mapValues { $0.forSnapshot() }
        return copy
    }

    /// How many notifications every uid holds together.
    var count: Int { lists.values.reduce(0) { $0 + $1.entries.count } }

    /// How many notifications `uid` holds, and how many of them are delivered.
    func counts(of uid: UInt32) -> (all: Int, delivered: Int) {
        guard let list = lists[uid] else { return (0, 0) }
        return (list.entries.count, list.deliveredCount)
    }

    /// Runs `body` on `uid`'s list taken out of `lists`, so that it is changed in place —
    /// a copy left in the dictionary would make every change copy the whole list — and
    /// puts it back unless it is empty.
    mutating func withList<Value, Failure: Error>(
        _ uid: UInt32, _ body: (inout UIDList) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        var list = lists.removeValue(forKey: uid) ?? UIDList()
        defer { if !list.entries.isEmpty { lists[uid] = list } }
        if list.takeReaders() { copiesWhileRead += 1 }
        return try body(&list)
    }

    /// Only `uid`'s list, for a view read after the lock: a reader of one uid holds no other
    /// uid's list, so that no other uid's change copies its list (issue 49, finding 4).
    func only(_ uid: UInt32) -> NotificationList {
        var view = NotificationList()
        view.lists[uid] = lists[uid]
        return view
    }

    /// The uids with a list.
    var uids: [UInt32] { Array(lists.keys) }

    /// `uid`'s list when a reader holds it; nil when the list is the state's alone.
    mutating func heldList(_ uid: UInt32) -> UIDList? {
        guard let index = lists.index(forKey: uid), !isKnownUniquelyReferenced(&lists.values[index].readers) else { return nil }
        return lists.values[index]
    }

    /// Puts `copy` (``UIDList/unshared()`` of `held`) in place of `uid`'s list, when the
    /// list is still `held`; the old one is freed with `held`, after the lock.
    mutating func replaceList(_ uid: UInt32, held: UIDList, with copy: UIDList) {
        guard let index = lists.index(forKey: uid), lists.values[index].readers === held.readers else { return }
        lists.values[index] = copy
    }

    func notification(uid: UInt32, app: String, identifier: String) -> HeraldNotification? {
        guard let list = lists[uid], let key = list.key(app: app, identifier: identifier) else { return nil }
        return list.entries[key]?.notification(app: app)
    }

    /// Puts `notification` in `uid`'s list, replacing the one with its (app, identifier);
    /// returns what it took out, for the caller to release after the state's lock.
    ///
    /// A delivered notification replaced by a delivered one keeps its place and
    /// `receivedAt`; any other replacement is a new notification. A new one in a list at
    /// `limit` evicts the oldest delivered, and so do as many as it takes to keep the list
    /// within `byteLimit`; where only scheduled ones would be left to evict it is refused,
    /// rather than losing a notification held for the summary.
    @discardableResult
    mutating func insert(_ notification: HeraldNotification, uid: UInt32, limit: Int, byteLimit: Int = .max) throws(RuleError) -> Inserted {
        var stamps = (next: nextStamp, evicted: 0)
        defer {
            nextStamp = stamps.next
            evicted += stamps.evicted
        }
        // Changed in place: `default` inserts an empty list for a new uid, which a refusal
        // never leaves behind (it needs a list at its limit).
        if lists[uid]?.takeReaders() == true { copiesWhileRead += 1 }
        var delivery = notification.delivery
        if delivery.reasons == lastReasons {
            delivery.reasons = lastReasons
        } else {
            lastReasons = delivery.reasons
        }
        let inserted = try Self.insert(
            notification, delivery: delivery, into: &lists[uid, default: UIDList()], limit: limit, byteLimit: byteLimit, stamps: &stamps)
        if notification.state == .scheduled, let deliverAt = notification.delivery.deliverAt {
            earliestDeliverAt = min(earliestDeliverAt ?? deliverAt, deliverAt)
        }
        if notification.state == .snoozed {
            let until = notification.snoozedUntil ?? notification.receivedAt
            earliestSnoozeEnd = min(earliestSnoozeEnd ?? until, until)
        }
        return inserted
    }

    /// What `insert` did: when the list keeps the notification as received (`receivedAt`
    /// differs for a delivered one replaced in place), and the entries it took out.
    struct Inserted: Sendable {
        var receivedAt: Date
        /// The replaced entry, and the oldest delivered evicted to make room: the last
        /// references to their strings, so that freeing them happens outside the lock.
        var removed: [Removed] = []
    }

    private static func insert(
        _ notification: HeraldNotification, delivery: Delivery, into list: inout UIDList, limit: Int, byteLimit: Int,
        stamps: inout (next: UInt64, evicted: Int)
    ) throws(RuleError) -> Inserted {
        // The key is hashed twice: to find it here, and to add it when it is new.
        let known = list.key(app: notification.app, identifier: notification.identifier)
        let index = known.flatMap { list.entries.index(forKey: $0) }
        let bytes = NotificationBytes.of(identifier: notification.identifier, content: notification.content)
        try checkBytes(bytes, content: notification.content, replacing: index.map { list.entries.values[$0] }, in: list, byteLimit: byteLimit)
        var oldest: [Key: Entry].Index?
        if index == nil, list.entries.count >= max(limit, 1) {
            guard let found = list.oldestDeliveredIndex() else {
                throw RuleError(
                    .invalidParams,
                    "This uid's notification list holds \(list.entries.count) notifications, all scheduled for the summary (--max-notifications); remove some or deliver the summary first.",
                    at: ["identifier"],
                    limit: limit
                )
            }
            oldest = found
        }
        // A new entry counts once more in the app table (a replaced one's count stays),
        // before the eviction, which may take the last other entry of this app.
        let key: Key
        if index == nil {
            let app = known?.app ?? list.apps.intern(notification.app)
            list.apps.retain(app)
            key = known ?? Key(app: app, identifier: notification.identifier)
        } else {
            key = known!
        }
        var inserted = Inserted(receivedAt: notification.receivedAt)
        if let oldest {
            inserted.removed.append(list.remove(at: oldest))
            stamps.evicted += 1
        }
        let app = key.app
        var entry = Entry(
            identifier: notification.identifier, app: app, content: notification.content, delivery: delivery,
            receivedAt: notification.receivedAt, deliveredAt: notification.deliveredAt, stamp: stamps.next, bytes: bytes
        )
        stamps.next += 2
        if notification.state == .snoozed {
            entry.snoozedUntil = notification.snoozedUntil ?? notification.receivedAt
        }
        if notification.state == .delivered {
            entry.deliveredStamp = stamps.next - 1
            list.deliveredOrder.append((stamps.next - 1, key))
            list.deliveredCount += 1
        }
        if let index {
            let previous = list.entries.values[index]
            list.bytes -= previous.bytes
            if previous.deliveredStamp != nil {
                list.deliveredCount -= 1
                list.deliveredBytes -= previous.bytes
                if entry.deliveredStamp != nil {
                    entry.stamp = previous.stamp
                    entry.receivedAt = previous.receivedAt
                }
            }
            inserted.receivedAt = entry.receivedAt
            inserted.removed.append(Removed(entry: previous, app: notification.app))
            list.search.remove(previous.searchDocument)
            list.index(&entry, key: key)
            list.entries.values[index] = entry
            list.compactIfWasteful()
            list.compactSearchIfWasteful()
        } else {
            list.index(&entry, key: key)
            list.entries[key] = entry
        }
        // Its weight with its search document, known once indexed.
        list.bytes += entry.bytes
        if entry.deliveredStamp != nil { list.deliveredBytes += entry.bytes }
        // Within the byte limit: the oldest delivered go first, never the one just put in
        // (checkBytes made sure that the others are enough).
        while list.bytes > byteLimit, let oldest = list.oldestDeliveredIndex(), list.entries.keys[oldest] != key {
            inserted.removed.append(list.remove(at: oldest))
            stamps.evicted += 1
        }
        return inserted
    }

    /// Refuses a notification that would not fit in `byteLimit` however many delivered ones
    /// were evicted: one larger than the limit, or one beside scheduled ones that fill it.
    /// `textBytes` is its own weight; its search document's is reckoned from its texts'
    /// lengths (``NotificationSearchIndex/weightBound(of:)``), and its words are read for
    /// the exact weight only when that bound would not fit.
    private static func checkBytes(
        _ textBytes: Int, content: NotificationContent, replacing previous: Entry?, in list: UIDList, byteLimit: Int
    ) throws(RuleError) {
        guard byteLimit < .max else { return }
        let scheduledBytes = list.bytes - list.deliveredBytes - (previous.map { $0.deliveredStamp == nil ? $0.bytes : 0 } ?? 0)
        var bytes = textBytes + NotificationSearchIndex.weightBound(of: content)
        if bytes > byteLimit - scheduledBytes { bytes = textBytes + NotificationSearchIndex.weight(of: content) }
        guard bytes <= byteLimit else {
            throw RuleError(
                .invalidParams,
                "This notification weighs about \(bytes) bytes with its words' entries in the search index, more than a uid's whole notification list may (--max-notification-bytes); send less content.",
                at: ["content"],
                limit: byteLimit
            )
        }
        guard scheduledBytes + bytes <= byteLimit else {
            throw RuleError(
                .invalidParams,
                "This uid's notifications scheduled for the summary weigh about \(scheduledBytes) bytes, and this one would pass --max-notification-bytes; remove some or deliver the summary first.",
                at: ["identifier"],
                limit: byteLimit
            )
        }
    }

    /// `uid`'s notifications of `app` (every app when nil) in `state` (both when nil),
    /// newest first, those after `cursor` only, each with its place for the next cursor.
    /// Sorted at once, made into notifications one at a time as they are read.
    func newestFirst(uid: UInt32, app: String?, state: NotificationState?, after cursor: NotificationCursor?)
        -> LazyMapSequence<[Entry], (place: NotificationCursor, notification: HeraldNotification)>
    {
        guard let list = lists[uid] else { return [Entry]().lazy.map { ($0.place, $0.notification(app: "")) } }
        let appID: AppNameTable.ID?
        if let app {
            guard let id = list.apps.id(of: app) else { return [Entry]().lazy.map { ($0.place, $0.notification(app: "")) } }
            appID = id
        } else {
            appID = nil
        }
        let chosen = list.entries.values.filter { entry in
            (appID == nil || entry.app == appID) && (state == nil || entry.state == state)
                && (cursor.map { entry.place < $0 } ?? true)
        }
        let apps = list.apps
        return chosen.sorted { $0.place > $1.place }.lazy.map { ($0.place, $0.notification(app: apps.name(of: $0.app))) }
    }

    /// `uid`'s delivered notifications that `isChosen` keeps, newest received first, among
    /// the `scanLimit` delivered last: read from the back of the delivered order, so that
    /// the cost is what is looked at, not the list.
    func newestDelivered(uid: UInt32, lookingAtMost scanLimit: Int, where isChosen: (Entry) -> Bool) -> [HeraldNotification] {
        guard let list = lists[uid] else { return [] }
        var chosen: [Entry] = []
        var position = list.deliveredOrder.count
        var looked = 0
        while position > list.head, looked < scanLimit {
            position -= 1
            looked += 1
            let (stamp, key) = list.deliveredOrder[position]
            guard let entry = list.entries[key], entry.deliveredStamp == stamp, isChosen(entry) else { continue }
            chosen.append(entry)
        }
        return chosen.sorted { $0.place > $1.place }.map { $0.notification(app: list.apps.name(of: $0.app)) }
    }

    /// Removes `uid`'s notifications of `app` (every app when nil) with these identifiers
    /// (all when nil); returns the identifiers removed, by app, in the order asked.
    mutating func remove(uid: UInt32, app: String?, identifiers: [String]?) -> [(app: String, identifiers: [String])] {
        guard lists[uid] != nil else { return [] }
        return withList(uid) { list in Self.remove(app: app, identifiers: identifiers, from: &list) }
    }

    private static func remove(app: String?, identifiers: [String]?, from list: inout UIDList) -> [(app: String, identifiers: [String])] {
        let appID = app.map { list.apps.id(of: $0) }
        if appID == .some(nil) { return [] }  // no notification of this app
        var keys: [Key]
        if let identifiers, let appID = appID ?? nil {
            keys = identifiers.map { Key(app: appID, identifier: $0) }
        } else {
            keys = list.entries.values.filter { appID == nil || $0.app == appID }
                .sorted { $0.stamp < $1.stamp }
                .map { Key(app: $0.app, identifier: $0.identifier) }
        }
        var removed: [(app: String, identifiers: [String])] = []
        var positions: [String: Int] = [:]
        for key in keys {
            guard let taken = list.remove(key) else { continue }
            if let position = positions[taken.app] {
                removed[position].identifiers.append(key.identifier)
            } else {
                positions[taken.app] = removed.count
                removed.append((taken.app, [key.identifier]))
            }
        }
        return removed
    }

    /// Delivers scheduled notifications, one summary per uid, ranked: those due at `now`
    /// (`deliverAt` come), or every scheduled one with `all` (a summary opened early);
    /// only `uid`'s when given. Uids in ascending order.
    mutating func deliverSummaries(now: Date, uid only: UInt32? = nil, all: Bool = false) -> [NotificationSummary] {
        if !all, only == nil {
            guard let earliest = earliestDeliverAt, earliest <= now else { return [] }
        }
        var summaries: [NotificationSummary] = []
        var nextEarliest: Date?
        for uid in lists.keys.sorted() {
            var list = lists.removeValue(forKey: uid)!
            defer { lists[uid] = list }
            if list.entries.values.contains(where: { $0.deliveredStamp == nil && $0.snoozedUntil == nil }), list.takeReaders() {
                copiesWhileRead += 1
            }
            // The keys first, then the changes: a change made while the loop holds the table
            // would copy all of it.
            var dueKeys: [Key] = []
            for (key, entry) in list.entries where entry.deliveredStamp == nil && entry.snoozedUntil == nil {
                let deliverAt = entry.delivery.deliverAt ?? now
                guard (only == nil || only == uid) && (all || deliverAt <= now) else {
                    nextEarliest = min(nextEarliest ?? deliverAt, deliverAt)
                    continue
                }
                dueKeys.append(key)
            }
            var due: [(entry: Entry, notification: HeraldNotification)] = []
            for key in dueKeys {
                var delivered = list.entries[key]!
                delivered.deliveredAt = now
                nextStamp += 1
                delivered.deliveredStamp = nextStamp
                list.entries[key] = delivered
                list.deliveredBytes += delivered.bytes
                due.append((delivered, delivered.notification(app: list.apps.name(of: delivered.app))))
            }
            guard !due.isEmpty else { continue }
            let ranked = Self.ranked(due)
            for (entry, _) in ranked {
                list.deliveredOrder.append((entry.deliveredStamp!, Key(app: entry.app, identifier: entry.identifier)))
            }
            list.deliveredCount += ranked.count
            summaries.append(NotificationSummary(uid: uid, deliveredAt: now, notifications: ranked.map(\.notification)))
        }
        earliestDeliverAt = nextEarliest
        return summaries
    }

    /// When the oldest delivered notification of any uid was delivered; nil when none is.
    var oldestDeliveredAt: Date? {
        lists.values.compactMap { $0.oldestDeliveredAt() }.min()
    }

    /// Forgets delivered notifications delivered before `cutoff`, at most `limit` of them;
    /// `isComplete` is false when more are left for the next call.
    @discardableResult
    mutating func pruneDelivered(before cutoff: Date, atMost limit: Int = .max) -> (pruned: Int, isComplete: Bool) {
        var pruned = 0
        var isComplete = true
        for uid in Array(lists.keys) where isComplete {
            guard let oldest = lists[uid]?.oldestDeliveredAt(), oldest < cutoff else { continue }
            withList(uid) { list in
                while let oldest = list.oldestDelivered(),
                    let deliveredAt = list.entries[oldest]?.deliveredAt, deliveredAt < cutoff
                {
                    guard pruned < limit else {
                        isComplete = false
                        return
                    }
                    _ = list.remove(oldest)
                    pruned += 1
                }
            }
        }
        expired += pruned
        return (pruned, isComplete)
    }
}
