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

    /// One uid's donations held, oldest first: its evictions take them from the front.
    struct Queue: Sendable {
        private(set) var held: [Held] = []
        /// The first still held; those before it were evicted.
        private(set) var head = 0
        /// Held donations by app.
        private(set) var apps: [AppNameTable.ID: Int] = [:]

        var count: Int { held.count - head }

        /// The sequence of the oldest still held.
        var oldestSequence: UInt64? { head < held.count ? held[head].sequence : nil }

        mutating func append(_ stored: consuming StoredInteraction, at key: InteractionKey) {
            apps[key.app, default: 0] += 1
            let sequence = stored.sequence
            held.append(Held(key: key, sequence: sequence, stored: stored))
        }

        /// The key of the donation held with `sequence`; nil when none is.
        func key(of sequence: UInt64) -> InteractionKey? {
            // In donation order: a binary search.
            var (low, high) = (head, held.count)
            while low < high {
                let middle = (low + high) / 2
                if held[middle].sequence < sequence { low = middle + 1 } else { high = middle }
            }
            return low < held.count && held[low].sequence == sequence && held[low].stored != nil ? held[low].key : nil
        }

        /// Takes out the oldest held, which the limits evict.
        mutating func removeOldest() -> (key: InteractionKey, stored: StoredInteraction)? {
            guard head < held.count, let stored = held[head].stored.take() else { return nil }
            let key = held[head].key
            head += 1
            if let left = apps[key.app], left > 1 {
                apps[key.app] = left - 1
            } else {
                apps.removeValue(forKey: key.app)
            }
            // The evicted part dropped once it is most of the array: amortized, each held
            // record moves at most once more.
            if head >= 1024, head * 2 >= held.count {
                held.removeFirst(head)
                head = 0
            }
            return (key, stored)
        }

        /// Takes out every donation still held, oldest first.
        mutating func takeAll(_ body: (InteractionKey, UInt64, consuming StoredInteraction) -> Void) {
            for index in head..<held.count {
                if let stored = held[index].stored.take() { body(held[index].key, held[index].sequence, stored) }
            }
            self = Queue()
        }
    }

    /// Each uid's held donations.
    private(set) var queues: [UInt32: Queue] = [:]
    /// The sequence of the donation held under each key, by the key's hash.
    private var sequences = HeldSequences()
    /// How many donations are held, all uids together.
    package private(set) var count = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }

    /// How many donations `uid` has held.
    func count(of uid: UInt32) -> Int {
        queues[uid]?.count ?? 0
    }

    /// Whether `uid` has a donation of `app` held.
    func holds(uid: UInt32, app: AppNameTable.ID) -> Bool {
        queues[uid]?.apps[app] != nil
    }

    /// Whether a donation is held under `key`, whose hash is `hash`.
    func holds(_ key: InteractionKey, hash: Int) -> Bool {
        guard let queue = queues[key.uid], let oldest = queue.oldestSequence else { return false }
        return sequences.contains(hash: hash) { sequence in sequence >= oldest && queue.key(of: sequence) == key }
    }

    /// Whether every donation held is `uid`'s.
    func holdsOnly(_ uid: UInt32) -> Bool {
        queues.allSatisfy { $0.key == uid || $0.value.count == 0 }
    }

    /// Holds `stored` under `key`, whose hash is `hash`, and which no donation held or
    /// stored has.
    mutating func append(_ stored: consuming StoredInteraction, at key: InteractionKey, hash: Int) {
        sequences.insert(stored.sequence, hash: hash)
        queues[key.uid, default: Queue()].append(stored, at: key)
        count += 1
    }

    /// Takes out `uid`'s oldest held donation.
    mutating func removeOldest(of uid: UInt32) -> (key: InteractionKey, stored: StoredInteraction)? {
        guard let removed = queues[uid]?.removeOldest() else { return nil }
        count -= 1
        return removed
    }

    /// Takes out every held donation in donation order, and empties the run.
    mutating func takeAll(_ body: (InteractionKey, UInt64, consuming StoredInteraction) -> Void) {
        if queues.count == 1, var only = queues.first?.value {
            queues = [:]
            only.takeAll(body)
        } else {
            var all: [Held] = []
            all.reserveCapacity(count)
            for uid in Array(queues.keys) {
                queues[uid]!.takeAll { key, sequence, stored in all.append(Held(key: key, sequence: sequence, stored: stored)) }
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
        if (count + 1) * 2 > hashes.count { grow() }
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

    private mutating func grow() {
        let capacity = Swift.max(1024, hashes.count * 2)
        var newHashes = [UInt64](repeating: 0, count: capacity)
        var newSequences = [UInt64](repeating: 0, count: capacity)
        for slot in hashes.indices where hashes[slot] != 0 {
            Self.place(hashes[slot], sequences[slot], in: &newHashes, &newSequences)
        }
        (hashes, sequences) = (newHashes, newSequences)
    }
}
