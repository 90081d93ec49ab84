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
        let sequence: UInt64
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
    /// The sequence of the donation held under each key, by the key's hash.
    private var sequences = HeldSequences()
    /// How many donations are held, all uids together.
    package private(set) var count = 0

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
    /// stored has.
    mutating func append(_ stored: consuming StoredInteraction, at key: InteractionKey, hash: Int) {
        sequences.insert(stored.sequence, hash: hash)
        queueList[queue(of: key.uid)].append(stored, at: key)
        count += 1
    }

    /// Takes out `uid`'s oldest held donation.
    mutating func removeOldest(of uid: UInt32) -> (key: InteractionKey, stored: StoredInteraction)? {
        guard let index = index(of: uid), let removed = queueList[index].removeOldest() else { return nil }
        count -= 1
        return removed
    }

    /// Takes out every held donation in donation order, and empties the run.
    mutating func takeAll(_ body: (InteractionKey, UInt64, consuming StoredInteraction) -> Void) {
        if queueList.count == 1 {
            var only = queueList.removeLast()
            only.takeAll(body)
        } else {
            var all: [Held] = []
            all.reserveCapacity(count)
            for index in queueList.indices {
                queueList[index].takeAll { key, sequence, stored in all.append(Held(key: key, sequence: sequence, stored: stored)) }
            }
            all.sort { $0.sequence < $1.sequence }
            for index in all.indices {
                body(all[index].key, all[index].sequence, all[index].stored.take()!)
            }
        }
        self = DonationRun()
    }
}

/// Sequences by a key's 64-bit hash, in one open-addressed table of plain integers: a
/// million keys found and added without hashing a string again when the table grows.
/// Nothing is removed: an entry whose donation was evicted is told apart by the caller
/// (its sequence is older than its uid's oldest held), and two keys of one hash are told
/// apart by the caller's look at the key itself.
struct HeldSequences: Sendable {
    /// Hash and sequence by slot; a hash of 0 marks an empty slot (a key's hash 0 is kept as 1).
    private var hashes: [UInt64] = []
    private var sequences: [UInt64] = []
    private var count = 0

    private static func stored(_ hash: Int) -> UInt64 {
        let hash = UInt64(bitPattern: Int64(hash))
        return hash == 0 ? 1 : hash
    }

    /// Whether an entry of `hash` has a sequence `matches` accepts.
    func contains(hash: Int, where matches: (UInt64) -> Bool) -> Bool {
        guard !hashes.isEmpty else { return false }
        let hash = Self.stored(hash)
        let mask = hashes.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while hashes[slot] != 0 {
            if hashes[slot] == hash, matches(sequences[slot]) { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    mutating func insert(_ sequence: UInt64, hash: Int) {
        if (count + 1) * 2 > hashes.count { resize(to: Swift.max(1024, hashes.count * 2)) }
        Self.place(Self.stored(hash), sequence, in: &hashes, &sequences)
        count += 1
    }

    private static func place(_ hash: UInt64, _ sequence: UInt64, in hashes: inout [UInt64], _ sequences: inout [UInt64]) {
        let mask = hashes.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while hashes[slot] != 0 { slot = (slot + 1) & mask }
        hashes[slot] = hash
        sequences[slot] = sequence
    }

    private mutating func resize(to capacity: Int) {
        var newHashes = [UInt64](repeating: 0, count: capacity)
        var newSequences = [UInt64](repeating: 0, count: capacity)
        for slot in hashes.indices where hashes[slot] != 0 {
            Self.place(hashes[slot], sequences[slot], in: &newHashes, &newSequences)
        }
        (hashes, sequences) = (newHashes, newSequences)
    }
}
