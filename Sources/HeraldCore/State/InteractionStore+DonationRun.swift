import FoundationEssentials
import HeraldProtocol

/// Runs `work(0)` … `work(count - 1)` at once and returns when every one is done; the
/// caller's threads, since the rules have none of their own.
package typealias ParallelWork = (_ count: Int, _ work: @escaping @Sendable (Int) -> Void) -> Void

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
        let held = run.queues[uid]?.apps.keys.filter { stored[$0] == nil }.count ?? 0
        return stored.count + held
    }

    /// Whether no uid but `uid` holds an interaction, stored or held in `run`.
    func holdsOnly(_ uid: UInt32, with run: DonationRun) -> Bool {
        shares.keys.allSatisfy { $0 == uid } && run.holdsOnly(uid)
    }

    /// Holds an interaction whose identifier is `key`'s, and which neither the store nor
    /// `run` holds, in `run`: what ``insert(_:uid:app:donatedAt:)`` does at its turn (its
    /// sequence, the earliest donation, its app's count), the tables left for the run's end.
    mutating func hold(
        _ interaction: consuming Interaction, at key: InteractionKey, hash: Int, donatedAt: Date, in run: inout DonationRun
    ) {
        let stored = storable(interaction, donatedAt: donatedAt)
        earliestDonation = Swift.min(earliestDonation ?? donatedAt, donatedAt)
        nextSequence += 1
        apps.retain(key.app)
        run.append(stored, at: key, hash: hash)
    }

    /// Removes `uid`'s oldest interaction, evicted: a stored one before any `run` holds,
    /// which are all donated later. One `run` holds is forgotten as ``removeOldest(of:)``
    /// forgets one stored, and never was in the tables.
    mutating func removeOldest(of uid: UInt32, with run: inout DonationRun) -> StoredInteraction? {
        if count(of: uid) > 0 { return removeOldest(of: uid)?.stored }
        guard let (key, stored) = run.removeOldest(of: uid) else { return nil }
        forgotten.mark(uid: key.uid, app: apps.name(of: key.app), identifier: key.identifier, cause: .evicted)
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
        run.takeAll { key, sequence, stored in
            if CallHistory.isFiled(stored) { calls.record(stored, at: key) }
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
