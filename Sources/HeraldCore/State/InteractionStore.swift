import Foundation
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

/// A donated interaction as the store keeps it.
struct StoredInteraction: Hashable, Sendable {
    /// As donated, with its identifier filled in when it was generated.
    var interaction: Interaction
    var donatedAt: Date
    /// Donation order; the oldest (lowest) is evicted first.
    var sequence: UInt64

    /// The interaction's own date, else its donation time.
    var effectiveDate: Date { interaction.date ?? donatedAt }
}

/// Every donated interaction, by (uid, app, identifier), in donation order, and the
/// incoming calls by caller (kept up to date here, by every insertion and removal).
///
/// Evicting the oldest and pruning by age cost O(1) each (``DonationOrder``); entries of
/// interactions deleted out of order are skipped as stale, and compacted away when they
/// outnumber the live ones.
struct InteractionStore: Sendable {
    private(set) var apps = AppNameTable()
    private var records = ShardedRecords()
    private var order = DonationOrder()
    private var nextSequence: UInt64 = 0
    /// Derived from the interactions, so a snapshot does not carry it.
    private(set) var calls = CallHistory()

    init() {}

    var count: Int { records.count }

    mutating func appID(interning name: String) -> AppNameTable.ID {
        apps.intern(name)
    }

    func key(uid: UInt32, app: String, identifier: String) -> InteractionKey? {
        apps.id(of: app).map { InteractionKey(uid: uid, app: $0, identifier: identifier) }
    }

    subscript(key: InteractionKey) -> StoredInteraction? {
        records[key]
    }

    /// Adds an interaction whose identifier is set and not yet stored.
    @discardableResult
    mutating func insert(
        _ interaction: consuming Interaction,
        uid: UInt32,
        app: AppNameTable.ID,
        donatedAt: Date
    ) -> InteractionKey {
        precondition(interaction.identifier != nil, "A stored interaction has an identifier.")
        let key = InteractionKey(uid: uid, app: app, identifier: interaction.identifier!)
        let stored = StoredInteraction(interaction: interaction, donatedAt: donatedAt, sequence: nextSequence)
        nextSequence += 1
        calls.record(stored, at: key)
        order.append(DonationOrder.Entry(key: key, sequence: stored.sequence))
        records.updateValue(stored, forKey: key)
        return key
    }

    mutating func remove(_ key: InteractionKey) -> StoredInteraction? {
        guard let removed = records.removeValue(forKey: key) else { return nil }
        calls.forget(removed, at: key)
        compactIfStale()
        return removed
    }

    /// Removes every interaction of (uid, app) that `shouldRemove` selects, and returns them.
    /// A scan of the whole store: deletion by group or of all is rare.
    mutating func removeAll(
        uid: UInt32,
        app: AppNameTable.ID,
        where shouldRemove: (StoredInteraction) -> Bool
    ) -> [(InteractionKey, StoredInteraction)] {
        let selected = records.filter { key, stored in key.uid == uid && key.app == app && shouldRemove(stored) }
        for (key, stored) in selected {
            _ = records.removeValue(forKey: key)
            calls.forget(stored, at: key)
        }
        compactIfStale()
        return selected
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
                calls.forget(oldest.stored, at: oldest.key)
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

    /// Makes room for `count` interactions, so that loading a snapshot does not grow the
    /// tables a doubling at a time.
    mutating func reserveCapacity(_ count: Int) {
        records.reserveCapacity(count)
        order.reserveCapacity(count)
    }

    /// Drops order entries of removed interactions once they outnumber the live ones.
    private mutating func compactIfStale() {
        let stale = order.count - records.count
        guard stale > 1024, stale > records.count else { return }
        let records = self.records
        order.compact { records[$0.key]?.sequence == $0.sequence }
    }
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
