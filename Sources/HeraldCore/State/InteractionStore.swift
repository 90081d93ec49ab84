import FoundationEssentials
import HeraldProtocol

/// Where an interaction lives: its donor's uid and app, and its identifier.
///
/// Data is namespaced by (uid, app): every lookup names all three, so one uid never
/// reaches another's interactions.
struct InteractionKey: Hashable, Sendable {
    var uid: UInt32
    var app: AppNameTable.ID
    var identifier: String
}

/// A donated interaction as the store keeps it: its record's bytes, one allocation, and
/// beside them only what the store's order needs (docs/performance.md, "Stored
/// interactions as their records").
struct StoredInteraction: Hashable, Sendable {
    /// As donated, with its identifier filled in when it was generated.
    var record: EncodedInteraction
    var donatedAt: Date
    /// Donation order; the oldest (lowest) is evicted first.
    var sequence: UInt64

    /// The interaction, decoded from its record.
    var interaction: Interaction { record.interaction }

    /// The interaction's own date, else its donation time.
    var effectiveDate: Date { record.date ?? donatedAt }
}

/// Every donated interaction, by (uid, app, identifier), in donation order, and the
/// incoming calls by caller (kept up to date here, by every insertion and removal).
///
/// Evicting the oldest and pruning by age cost O(1) each (``DonationOrder``); entries of
/// interactions deleted out of order are skipped as stale, and compacted away, a few
/// positions per change, once they outnumber the live ones. Each uid's share (``UIDShare``)
/// keeps its own donation order, so a uid's oldest is found without looking at anyone else's.
struct InteractionStore: Sendable {
    private(set) var apps = AppNameTable()
    private var records = ShardedRecords()
    private var order = DonationOrder()
    private(set) var nextSequence: UInt64 = 0
    /// Derived from the interactions, so a snapshot does not carry it.
    private(set) var calls = CallHistory()
    /// The interactions forgotten recently and why, for an error that says so.
    private(set) var forgotten = ForgottenInteractions()
    /// Each uid's count, apps and donation order; derived, like `calls`.
    private var shares: [UInt32: UIDShare] = [:]

    /// No stored interaction was donated before this; nil when none was since the last
    /// look at the oldest. A lower bound: removals do not raise it (``noteEarliestDonation()``
    /// does), so that the earliest expiry is known after every donation without a look.
    private(set) var earliestDonation: Date?

    init() {}

    var count: Int { records.count }

    /// Sets ``earliestDonation`` to the oldest stored donation's time.
    mutating func noteEarliestDonation() {
        earliestDonation = oldest?.stored.donatedAt
    }

    mutating func appID(interning name: String) -> AppNameTable.ID {
        apps.intern(name)
    }

    func key(uid: UInt32, app: String, identifier: String) -> InteractionKey? {
        apps.id(of: app).map { InteractionKey(uid: uid, app: $0, identifier: identifier) }
    }

    subscript(key: InteractionKey) -> StoredInteraction? {
        records[key]
    }

    /// Adds the interaction `record` holds, under `identifier` (its own), not yet stored; a
    /// message's text in it is only its digest (``ContentDigest``).
    @discardableResult
    mutating func insert(
        _ record: EncodedInteraction, identifier: String, uid: UInt32, app: AppNameTable.ID, donatedAt: Date
    ) -> InteractionKey {
        let key = InteractionKey(uid: uid, app: app, identifier: identifier)
        let stored = storable(record, donatedAt: donatedAt)
        let filing = Self.filing(stored)
        records.updateValue(consume stored, forKey: key)
        didInsert(filing, at: key)
        return key
    }

    /// Adds an interaction at `key`, its identifier's, as ``insert(_:identifier:uid:app:donatedAt:)``
    /// does, unless one is stored there: then changes nothing and returns that one.
    mutating func insertIfAbsent(_ record: EncodedInteraction, at key: InteractionKey, donatedAt: Date) -> StoredInteraction? {
        let stored = storable(record, donatedAt: donatedAt)
        let filing = Self.filing(stored)
        if let existing = records.insertIfAbsent(consume stored, forKey: key) { return existing }
        didInsert(filing, at: key)
        return nil
    }

    /// `record` as the store keeps it, with the next sequence.
    private func storable(_ record: EncodedInteraction, donatedAt: Date) -> StoredInteraction {
        StoredInteraction(record: record, donatedAt: donatedAt, sequence: nextSequence)
    }

    /// What ``didInsert(_:at:)`` needs of `stored`, taken before the record moves into the
    /// table rather than being copied there: its sequence and donation time, and the record
    /// itself only for a call, the one kind filed by its caller.
    private static func filing(_ stored: StoredInteraction) -> (sequence: UInt64, donatedAt: Date, call: StoredInteraction?) {
        (stored.sequence, stored.donatedAt, CallHistory.isFiled(stored) ? stored : nil)
    }

    /// Files what is derived from the interaction just stored at `key`.
    private mutating func didInsert(_ filing: (sequence: UInt64, donatedAt: Date, call: StoredInteraction?), at key: InteractionKey) {
        earliestDonation = Swift.min(earliestDonation ?? filing.donatedAt, filing.donatedAt)
        nextSequence += 1
        if let call = filing.call { calls.record(call, at: key) }
        let entry = DonationOrder.Entry(key: key, sequence: filing.sequence)
        order.append(entry)
        shares[key.uid, default: UIDShare()].add(entry)
        apps.retain(key.app)
        if order.isCompacting { compactIfStale() }
    }

    mutating func remove(_ key: InteractionKey) -> StoredInteraction? {
        guard let removed = records.removeValue(forKey: key) else { return nil }
        forget(removed, at: key, because: .deleted)
        compactIfStale()
        return removed
    }

    /// Forgets app names no interaction refers to.
    mutating func pruneAppNames() {
        apps.releaseUnreferenced()
    }

    /// The uids holding interactions.
    var uids: Dictionary<UInt32, UIDShare>.Keys { shares.keys }

    /// Whether `uid` holds interactions of `app`.
    func holds(uid: UInt32, app: AppNameTable.ID) -> Bool {
        shares[uid]?.apps[app] != nil
    }

    /// How many apps `uid` holds interactions of.
    func appCount(of uid: UInt32) -> Int {
        shares[uid]?.apps.count ?? 0
    }

    /// How many interactions `uid` holds.
    func count(of uid: UInt32) -> Int {
        shares[uid]?.count ?? 0
    }

    /// The uid holding the most interactions; `preferred` when it holds as many, else the
    /// lowest of those holding as many: never the table's order, so that a replay makes
    /// the choice the live heraldd made.
    func largestShare(preferring preferred: UInt32) -> UInt32? {
        var largest: (uid: UInt32, count: Int)? = shares[preferred].map { (preferred, $0.count) }
        for (uid, share) in shares {
            guard let chosen = largest else {
                largest = (uid, share.count)
                continue
            }
            if share.count > chosen.count || (share.count == chosen.count && chosen.uid != preferred && uid < chosen.uid) {
                largest = (uid, share.count)
            }
        }
        return largest?.uid
    }

    /// Removes and returns `uid`'s oldest donation.
    mutating func removeOldest(of uid: UInt32) -> (key: InteractionKey, stored: StoredInteraction)? {
        // Out of its table while it changes, so that it is never copied, and looked up once.
        guard var share = shares.removeValue(forKey: uid) else { return nil }
        let found = takeOldest(of: &share)
        guard let found else {
            shares[uid] = consume share
            return nil
        }
        forgetBesidesTheShare(found.stored, at: found.key, because: .evicted)
        Self.countOut(found.stored, at: found.key, from: &share, records: records)
        if share.count > 0 { shares[uid] = consume share }
        compactIfStale()
        return found
    }

    /// Removes the oldest interaction of `share`'s order from the records, moving the
    /// order's head past it. Removed at once, with one look-up, and put back when it is a
    /// later donation under the same identifier (the entry was stale).
    private mutating func takeOldest(of share: inout UIDShare) -> (key: InteractionKey, stored: StoredInteraction)? {
        while share.order.head < share.order.end {
            let entry = share.order[share.order.head]
            share.order.advanceHead()
            if let stored = records.removeValue(forKey: entry.key) {
                if stored.sequence == entry.sequence { return (entry.key, stored) }
                records.updateValue(stored, forKey: entry.key)
            }
        }
        return nil
    }

    /// Updates what is derived from the interactions after `stored` left.
    private mutating func forget(_ stored: StoredInteraction, at key: InteractionKey, because cause: ForgottenInteractions.Cause) {
        forgetBesidesTheShare(stored, at: key, because: cause)
        guard var share = shares.removeValue(forKey: key.uid) else { return }
        Self.countOut(stored, at: key, from: &share, records: records)
        if share.count > 0 { shares[key.uid] = consume share }
    }

    /// All that ``forget(_:at:because:)`` updates but the uid's share.
    private mutating func forgetBesidesTheShare(
        _ stored: StoredInteraction, at key: InteractionKey, because cause: ForgottenInteractions.Cause
    ) {
        forgotten.mark(uid: key.uid, app: apps.name(of: key.app), identifier: key.identifier, cause: cause)
        // A uid at its limit evicts its own oldest, the store's oldest too when one uid
        // donates the most: left behind, a million stale entries would make every change
        // pay for compacting them and every look at the oldest (expiry) skip them all.
        order.advanceHead(pastRemoved: stored.sequence)
        calls.forget(stored, at: key)
        apps.release(key.app)
    }

    /// Counts `stored` out of its uid's share, taken out of the table meanwhile.
    private static func countOut(_ stored: StoredInteraction, at key: InteractionKey, from share: inout UIDShare, records: ShardedRecords) {
        share.remove(key)
        guard share.count > 0 else { return }
        share.compactIfStale(afterRemoving: stored.sequence) { records[$0.key]?.sequence == $0.sequence }
    }

    /// The entries of (uid, app)'s interactions that `isSelected` selects, oldest first;
    /// changes nothing. A scan of that uid's interactions only: its share's donation order.
    func select(
        uid: UInt32,
        app: AppNameTable.ID,
        where isSelected: (StoredInteraction) -> Bool
    ) -> [DonationOrder.Entry] {
        guard let share = shares[uid], share.apps[app] != nil else { return [] }
        var selected: [DonationOrder.Entry] = []
        for position in share.order.head..<share.order.end {
            let entry = share.order[position]
            guard entry.key.app == app, let stored = records[entry.key], stored.sequence == entry.sequence,
                isSelected(stored)
            else { continue }
            selected.append(entry)
        }
        return selected
    }

    /// The entry of the interaction stored at `key`, if any.
    func entry(at key: InteractionKey) -> DonationOrder.Entry? {
        records[key].map { DonationOrder.Entry(key: key, sequence: $0.sequence) }
    }

    /// Removes each interaction still stored as `entries` name it — the same donation,
    /// not one donated again under its identifier since — and returns how many it removed.
    mutating func remove(_ entries: some Sequence<DonationOrder.Entry>) -> Int {
        var removed = 0
        for entry in entries {
            guard let stored = records[entry.key], stored.sequence == entry.sequence else { continue }
            _ = records.removeValue(forKey: entry.key)
            forget(stored, at: entry.key, because: .deleted)
            removed += 1
        }
        compactIfStale(after: removed)
        return removed
    }

    /// The oldest donation still stored.
    var oldest: (key: InteractionKey, stored: StoredInteraction)? {
        var donations = makeIterator()
        return donations.next()
    }

    /// The interaction the donation order names at `position`, unless it was removed since
    /// (a stale entry).
    private func stored(at position: Int) -> (key: InteractionKey, stored: StoredInteraction)? {
        let entry = order[position]
        guard let stored = records[entry.key], stored.sequence == entry.sequence else { return nil }
        return (entry.key, stored)
    }

    /// Removes and returns the oldest donation.
    mutating func removeOldest() -> (key: InteractionKey, stored: StoredInteraction)? {
        while order.head < order.end {
            let oldest = stored(at: order.head)
            order.advanceHead()
            if let oldest {
                _ = records.removeValue(forKey: oldest.key)
                forget(oldest.stored, at: oldest.key, because: .expired)
                compactIfStale()
                return oldest
            }
        }
        return nil
    }

    /// The positions of the donation order still to visit, stale ones included: for work
    /// split into ranges of positions.
    var donationPositions: Range<Int> { order.head..<order.end }

    /// The interactions still stored at `positions` of the donation order, oldest first.
    func forEach(at positions: Range<Int>, _ body: (InteractionKey, StoredInteraction) throws -> Void) rethrows {
        for position in positions {
            if let (key, stored) = stored(at: position) {
                try body(key, stored)
            }
        }
    }

    /// The interactions still stored at some positions of the donation order, found
    /// without a look-up per position (``placedRuns(_:)``).
    struct PlacedRun: Sendable {
        fileprivate var places: [(sequence: UInt64, place: ShardedRecords.Place)] = []

        var count: Int { places.count }

        /// The places in donation order, gathered in one tight loop.
        fileprivate func inDonationOrder() -> [ShardedRecords.Place] {
            indicesInDonationOrder().map { places[$0].place }
        }

        /// The indices of `places` in donation order: counted into a slot per sequence where
        /// the run's sequences are dense (a few stale positions among them), sorted otherwise.
        private func indicesInDonationOrder() -> [Int] {
            guard let low = places.lazy.map(\.sequence).min(), let high = places.lazy.map(\.sequence).max() else { return [] }
            let span = high - low + 1
            guard span <= 4 * UInt64(places.count) else {
                return places.indices.sorted { places[$0].sequence < places[$1].sequence }
            }
            var slots = [Int32](repeating: -1, count: Int(span))
            for index in places.indices { slots[Int(places[index].sequence - low)] = Int32(index) }
            var indices: [Int] = []
            indices.reserveCapacity(places.count)
            for slot in slots where slot >= 0 { indices.append(Int(slot)) }
            return indices
        }
    }

    /// The interactions still stored at each of `runs` — ranges of positions of the
    /// donation order, each beginning where the one before ends — for ``forEach(in:_:)``.
    ///
    /// Each table is read once in memory order and each record put in its run by its
    /// sequence (sequences rise with position in the order), where a visit by position
    /// hashes every key and probes a random shard for it: most of a snapshot's encoding
    /// (docs/performance.md, "Snapshots").
    func placedRuns(_ runs: [Range<Int>]) -> [PlacedRun] {
        var placed = runs.map { run -> PlacedRun in
            var placed = PlacedRun()
            placed.places.reserveCapacity(run.count)
            return placed
        }
        guard let first = runs.first, let last = runs.last, first.lowerBound < order.end else { return placed }
        precondition(first.lowerBound >= order.head && last.upperBound <= order.end, "Runs of positions within the order.")
        // The sequence each run begins at, and the one past the last run.
        let starts = runs.map { order[$0.lowerBound].sequence }
        let end = last.upperBound < order.end ? order[last.upperBound].sequence : UInt64.max
        records.forEachPlace { sequence, place in
            guard sequence >= starts[0], sequence < end else { return }
            // The last run beginning at or before `sequence`.
            var low = 0
            var high = starts.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if starts[middle] <= sequence { low = middle } else { high = middle }
            }
            placed[low].places.append((sequence, place))
        }
        return placed
    }

    /// The interactions of `run` (of this store: ``placedRuns(_:)``), oldest first, with
    /// their uid and app.
    ///
    /// Records are far apart in memory: a batch of them is touched before it is visited,
    /// so that its cache misses overlap rather than come one after another (about a third
    /// of a snapshot's encoding: docs/performance.md, "Snapshots").
    func forEach(in run: PlacedRun, _ body: (_ uid: UInt32, _ app: AppNameTable.ID, _ stored: StoredInteraction) throws -> Void) rethrows {
        let places = run.inDonationOrder()
        for start in stride(from: 0, to: places.count, by: 16) {
            let batch = start..<Swift.min(start + 16, places.count)
            var touched: UInt64 = 0
            for index in batch { touched &+= records.sequence(at: places[index]) }
            Self.keep(touched)
            for index in batch {
                try body(places[index].uid, places[index].app, records[places[index]])
            }
        }
    }

    /// Uses `value`, so that the loads that made it are not optimized away.
    @inline(never)
    private static func keep(_ value: UInt64) {}

    /// Makes room for `count` interactions, so that loading a snapshot does not grow the
    /// tables a doubling at a time.
    mutating func reserveCapacity(_ count: Int) {
        records.reserveCapacity(count)
        order.reserveCapacity(count)
    }

    /// Drops order entries of removed interactions once they outnumber the live ones, a
    /// few positions for each of `changes` insertions or removals (``DonationOrder``): the
    /// compaction ends before stale entries can grow by more than a fraction.
    private mutating func compactIfStale(after changes: Int = 1) {
        let records = self.records
        order.compact(liveCount: records.count, threshold: 1024, budget: Self.compactionPositionsPerChange * changes) {
            records[$0.key]?.sequence == $0.sequence
        }
    }

    /// How many positions of the donation order a compaction looks at for each change.
    static let compactionPositionsPerChange = 8
}

extension InteractionStore: Sequence {
    /// Every stored interaction, oldest donation first.
    struct Iterator: IteratorProtocol {
        fileprivate let store: InteractionStore
        fileprivate var position: Int

        mutating func next() -> (key: InteractionKey, stored: StoredInteraction)? {
            while position < store.order.end {
                position += 1
                if let found = store.stored(at: position - 1) {
                    return found
                }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator {
        Iterator(store: self, position: order.head)
    }

    var underestimatedCount: Int { count }
}

/// A replay's run of donations (``DonationRun``): each donation's turn as
/// ``insert(_:uid:app:donatedAt:)`` and ``removeOldest(of:)`` take it, the tables left for
/// the run's end.
extension InteractionStore {
    /// Whether an interaction is stored or held in `run` under `key`, whose hash is `hash`.
    func contains(_ key: InteractionKey, hash: Int, orIn run: DonationRun) -> Bool {
        (records.count > 0 && records[key] != nil) || run.holds(key, hash: hash)
    }

    /// How many interactions `uid` holds, stored and held in `run`.
    func count(of uid: UInt32, with run: DonationRun) -> Int {
        count(of: uid) + run.count(of: uid)
    }

    /// Whether `uid` holds interactions of `app`, stored or held in `run`.
    func holds(uid: UInt32, app: AppNameTable.ID, with run: DonationRun) -> Bool {
        holds(uid: uid, app: app) || run.holds(uid: uid, app: app)
    }

    /// How many apps `uid` holds interactions of, stored or held in `run`.
    func appCount(of uid: UInt32, with run: DonationRun) -> Int {
        let stored = shares[uid]?.apps ?? [:]
        let held = run.apps(of: uid).keys.filter { stored[$0] == nil }.count
        return stored.count + held
    }

    /// Whether no uid but `uid` holds an interaction, stored or held in `run`.
    func holdsOnly(_ uid: UInt32, with run: DonationRun) -> Bool {
        shares.keys.allSatisfy { $0 == uid } && run.holdsOnly(uid)
    }

    /// Holds an interaction whose identifier is `key`'s, and which neither the store nor
    /// `run` holds, in `run`: what ``insert(_:uid:app:donatedAt:)`` does at its turn (its
    /// sequence, the earliest donation, its app's count), the tables left for the run's end.
    /// `isIncomingCall` is the record's ``EncodedInteraction/isIncomingCall``.
    mutating func hold(
        _ record: EncodedInteraction, at key: InteractionKey, hash: Int, isIncomingCall: Bool, donatedAt: Date,
        in run: inout DonationRun
    ) {
        let stored = storable(record, donatedAt: donatedAt)
        earliestDonation = Swift.min(earliestDonation ?? donatedAt, donatedAt)
        nextSequence += 1
        apps.retain(key.app)
        run.append(stored, at: key, hash: hash, isIncomingCall: isIncomingCall)
    }

    /// Removes `uid`'s oldest interaction, evicted: a stored one before any `run` holds,
    /// which are all donated later. One `run` holds is forgotten as ``removeOldest(of:)``
    /// forgets one stored, and never was in the tables.
    mutating func removeOldest(of uid: UInt32, with run: inout DonationRun) -> StoredInteraction? {
        if count(of: uid) > 0 { return removeOldest(of: uid)?.stored }
        guard let (key, hash, stored) = run.removeOldest(of: uid) else { return nil }
        forgotten.mark(uid: key.uid, digest: hash, cause: .evicted)
        apps.release(key.app)
        return stored
    }

    /// Puts every interaction `run` holds in the tables, and empties it: the records shard
    /// by shard (on `parallel` when given), then the calls, the donation order and the
    /// uids' shares in one pass in donation order, as their insertions one at a time
    /// would have left them.
    mutating func storeRun(_ run: inout DonationRun, parallel: ParallelWork?) {
        guard !run.isEmpty else {
            run = DonationRun()
            return
        }
        var entries: [DonationOrder.Entry] = []
        var held: [ShardedRecords.Insertion] = []
        entries.reserveCapacity(run.count)
        held.reserveCapacity(run.count)
        run.takeAll { key, sequence, isIncomingCall, stored in
            // CallHistory.isFiled(stored), known without reading the record again.
            if isIncomingCall { calls.record(stored, at: key) }
            entries.append(DonationOrder.Entry(key: key, sequence: sequence))
            held.append(ShardedRecords.Insertion(key: key, stored: stored))
        }
        records.insertAbsent(&held, parallel: parallel)
        var index = entries.startIndex
        while index < entries.endIndex {
            // A uid's entries a stretch at a time, its share out of the table meanwhile.
            let uid = entries[index].key.uid
            var share = shares.removeValue(forKey: uid) ?? UIDShare()
            while index < entries.endIndex, entries[index].key.uid == uid {
                order.append(entries[index])
                share.add(entries[index])
                index += 1
            }
            shares[uid] = consume share
        }
        if order.isCompacting { compactIfStale(after: entries.count) }
    }
}
