import CPrefetch

/// Donations a replay of the change log has counted as stored but not yet put in the
/// store's tables: a run of consecutive donation records, held until the run ends.
///
/// A restart replays a million logged donations, and under the limits half of them are
/// evicted again by later ones in the same run. Held here, such a donation is never
/// stored: when the limits evict it, it leaves its uid's queue as it came (in donation
/// order), counted and forgotten as the store would have. At the run's end the survivors
/// go into the store's shards together, a shard at a time, and the donation order and the
/// uids' shares are built in one pass (``InteractionStore/storeRun(_:parallel:)``). What
/// a donation does to the counts, the limits and the app names it does at its turn, so the
/// state after the run is the state one donation after another makes
/// (docs/performance.md, "Durability").
package struct DonationRun: Sendable {
    /// A donation held: its key, and the record as the store would keep it until it is
    /// stored or evicted (then nil).
    struct Held: Sendable {
        let key: InteractionKey
        /// The key's ``DonationRun/keyHash(uid:app:identifier:)``: what an eviction marks
        /// as forgotten.
        let hash: Int
        let sequence: UInt64
        /// Whether it is an incoming call, which the store files by its caller
        /// (``CallHistory/isFiled(_:)``): read from the record when the record was read,
        /// since reading a million records again at the run's end waited on memory for
        /// half of ``takeAll(_:)``.
        let isIncomingCall: Bool
        var stored: StoredInteraction?
    }

    /// Each uid's held donations, in the order the uids first donated.
    private var queueList: [Queue] = []
    /// The uid of each of ``queueList``.
    private var queueUIDs: [UInt32] = []
    /// Where each uid's queue is in ``queueList``.
    private var queueIndex: [UInt32: Int] = [:]
    /// The uid that last donated, and where its queue is: a run is mostly one uid's
    /// donations after another's, and each donation asks for its uid's queue several
    /// times, each a look-up that hashes the uid (docs/performance.md, "Durability").
    private var lastUID: UInt32?
    private var lastQueue = 0
    /// The app the last donation named, and its number: a run is mostly one app's
    /// donations, and a look-up by name hashes the name (``appID(of:in:)``).
    private var lastApp: (name: String, id: AppNameTable.ID)?
    /// The sequence of the donation held under each key, by the key's hash.
    private var sequences = HeldSequences()
    /// How many donations are held, all uids together.
    package private(set) var count = 0
    /// What hashing the last donation's key began with (``KeyHashes``): a replay works each
    /// key's hash out on the applying thread, a few donations ahead of its turn.
    package var keyHashes = KeyHashes()

    package init() {}

    package var isEmpty: Bool { count == 0 }

    /// Where `uid`'s queue is in ``queueList``; nil when it has none.
    private func index(of uid: UInt32) -> Int? {
        uid == lastUID ? lastQueue : queueIndex[uid]
    }

    /// Where `uid`'s queue is, made when it has none, and remembered as the last.
    private mutating func queue(of uid: UInt32) -> Int {
        let index: Int
        if let found = self.index(of: uid) {
            index = found
        } else {
            index = queueList.count
            queueList.append(Queue())
            queueUIDs.append(uid)
            queueIndex[uid] = index
        }
        (lastUID, lastQueue) = (uid, index)
        return index
    }

    /// `uid`'s held donations' apps and counts; empty when it has none.
    func apps(of uid: UInt32) -> [AppNameTable.ID: Int] {
        index(of: uid).map { queueList[$0].apps } ?? [:]
    }

    /// How many donations `uid` has held.
    func count(of uid: UInt32) -> Int {
        index(of: uid).map { queueList[$0].count } ?? 0
    }

    /// Whether `uid` has a donation of `app` held.
    func holds(uid: UInt32, app: AppNameTable.ID) -> Bool {
        guard let index = index(of: uid) else { return false }
        return queueList[index].apps[app] != nil
    }

    /// The hash a run files the key of `uid`'s donation of `identifier` from `app` under:
    /// of the app's name rather than its number, so that a restart works it out on its
    /// reading thread, before the state's lock; equal keys have equal names, and so equal
    /// hashes. It is also the digest an eviction marks as forgotten
    /// (``ForgottenInteractions``), so that an evicted donation is not hashed again.
    package static func keyHash(uid: UInt32, app: String, identifier: String) -> Int {
        var hasher = Hasher()
        hasher.combine(uid)
        hasher.combine(app)
        hasher.combine(identifier)
        return hasher.finalize()
    }

    /// ``keyHash(uid:app:identifier:)`` for one donation after another, the hasher's state
    /// after the uid and the app's name kept from the last: a log is mostly one uid's
    /// donations of one app after another's, and comparing a name costs less than hashing
    /// it again. The hashes are the same.
    package struct KeyHashes {
        private var last: (uid: UInt32, app: String, hasher: Hasher)?

        package init() {}

        package mutating func hash(uid: UInt32, app: String, identifier: String) -> Int {
            var hasher: Hasher
            if let last, last.uid == uid, last.app == app {
                hasher = last.hasher
            } else {
                hasher = Hasher()
                hasher.combine(uid)
                hasher.combine(app)
                last = (uid, app, hasher)
            }
            hasher.combine(identifier)
            return hasher.finalize()
        }
    }

    /// The number of `app` in `apps`; nil when it has none. The last donation's app is
    /// compared rather than looked up: the same name at the same number is the same app.
    mutating func appID(of app: String, in apps: AppNameTable) -> AppNameTable.ID? {
        if let (name, id) = lastApp, name == app, Int(id) < apps.names.count, apps.name(of: id) == app { return id }
        let id = apps.id(of: app)
        lastApp = id.map { (app, $0) }
        return id
    }

    /// Brings in the part of the table a look-up of `hash` reads first, without waiting
    /// for it: the replay asks a few donations ahead, so that a million look-ups in a
    /// table past the caches do not each wait for memory (docs/performance.md,
    /// "Durability").
    package func prefetch(hash: Int) {
        sequences.prefetch(hash: hash)
    }

    /// Whether a donation is held under `key`, whose hash is `hash`.
    func holds(_ key: InteractionKey, hash: Int) -> Bool {
        guard let index = index(of: key.uid), let oldest = queueList[index].oldestSequence else { return false }
        return sequences.contains(hash: hash) { sequence in sequence >= oldest && queueList[index].key(of: sequence) == key }
    }

    /// Whether every donation held is `uid`'s.
    func holdsOnly(_ uid: UInt32) -> Bool {
        queueList.indices.allSatisfy { queueUIDs[$0] == uid || queueList[$0].count == 0 }
    }

    /// Holds `stored` under `key`, whose hash is `hash`, and which no donation held or
    /// stored has; `isIncomingCall` is its record's ``EncodedInteraction/isIncomingCall``.
    mutating func append(_ stored: consuming StoredInteraction, at key: InteractionKey, hash: Int, isIncomingCall: Bool) {
        sequences.insert(stored.sequence, hash: hash)
        queueList[queue(of: key.uid)].append(stored, at: key, hash: hash, isIncomingCall: isIncomingCall)
        count += 1
    }

    /// Takes out `uid`'s oldest held donation, with its key's hash.
    mutating func removeOldest(of uid: UInt32) -> (key: InteractionKey, hash: Int, stored: StoredInteraction)? {
        guard let index = index(of: uid), let removed = queueList[index].removeOldest() else { return nil }
        count -= 1
        return removed
    }

    /// Takes out every held donation in donation order, with its key, sequence and
    /// whether it is an incoming call, and empties the run.
    mutating func takeAll(_ body: (InteractionKey, UInt64, Bool, consuming StoredInteraction) -> Void) {
        if queueList.count == 1 {
            var only = queueList.removeLast()
            only.takeAll(body)
        } else {
            var all: [Held] = []
            all.reserveCapacity(count)
            for index in queueList.indices {
                // Their hashes are no longer needed: 0.
                queueList[index].takeAll { key, sequence, isIncomingCall, stored in
                    all.append(Held(key: key, hash: 0, sequence: sequence, isIncomingCall: isIncomingCall, stored: stored))
                }
            }
            all.sort { $0.sequence < $1.sequence }
            for index in all.indices {
                body(all[index].key, all[index].sequence, all[index].isIncomingCall, all[index].stored.take()!)
            }
        }
        self = DonationRun()
    }
}

/// Sequences by a key's hash, in one open-addressed table of plain integers: a million
/// keys found and added without hashing a string again when the table grows.
///
/// A slot is one word: the upper half of the key's hash, which also chooses the slot, and
/// how far the sequence lies past the first one held plus one (so that 0 marks an empty
/// slot). A probe reads one word, where a hash and a sequence side by side would read two
/// lines. Nothing is removed: an entry whose donation was evicted is told apart by the
/// caller (its sequence is older than its uid's oldest held), and two keys alike in the
/// half hash kept are told apart by the caller's look at the key itself.
struct HeldSequences: Sendable {
    private var slots: [UInt64] = []
    /// The first sequence held: the others are kept as their distance past it.
    private var base: UInt64 = 0
    private var count = 0

    private static func tag(_ hash: Int) -> UInt64 {
        UInt64(bitPattern: Int64(hash)) >> 32
    }

    /// Whether an entry of `hash` has a sequence `matches` accepts.
    func contains(hash: Int, where matches: (UInt64) -> Bool) -> Bool {
        guard !slots.isEmpty else { return false }
        let tag = Self.tag(hash)
        let mask = slots.count - 1
        var slot = Int(tag) & mask
        while slots[slot] != 0 {
            if slots[slot] >> 32 == tag, matches(base + (slots[slot] & 0xFFFF_FFFF) - 1) { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    /// Brings in the slot a look-up of `hash` starts at.
    func prefetch(hash: Int) {
        guard !slots.isEmpty else { return }
        let slot = Int(Self.tag(hash)) & (slots.count - 1)
        slots.withUnsafeBufferPointer { slots in herald_prefetch(slots.baseAddress! + slot) }
    }

    /// Adds `sequence` under `hash`: the run's sequences only grow, a run holding fewer
    /// than 2³² donations.
    mutating func insert(_ sequence: UInt64, hash: Int) {
        if count == 0 { base = sequence }
        let distance = sequence - base + 1
        precondition(distance <= 0xFFFF_FFFF, "A run holds fewer than 2^32 donations.")
        if (count + 1) * 2 > slots.count { resize(to: Swift.max(1024, slots.count * 2)) }
        Self.place(Self.tag(hash) << 32 | distance, in: &slots)
        count += 1
    }

    /// Puts `entry` in the first free slot from the one its half hash chooses.
    private static func place(_ entry: UInt64, in slots: inout [UInt64]) {
        let mask = slots.count - 1
        var slot = Int(entry >> 32) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    /// Moves every entry into a table of `capacity` slots.
    private mutating func resize(to capacity: Int) {
        var resized = [UInt64](repeating: 0, count: capacity)
        for slot in slots.indices where slots[slot] != 0 {
            Self.place(slots[slot], in: &resized)
        }
        slots = resized
    }
}
