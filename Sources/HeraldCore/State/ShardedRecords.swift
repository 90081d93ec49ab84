import CPrefetch

/// The stored interactions by key, in 16,384 dictionaries chosen by the key's hash.
///
/// A snapshot holds a copy-on-write copy of the whole state. The first change afterwards
/// would copy a single dictionary of a million records (about half a second, under the
/// state's lock, while every request waits); split this way it copies one shard of a few
/// dozen records, and each later change at most one more. What that leaves of `donate`'s
/// p99 while a snapshot is written: docs/performance.md, "Snapshots".
struct ShardedRecords: Sendable {
    private static let shardCount = 16384
    private var shards = [[InteractionKey: StoredInteraction]](repeating: [:], count: shardCount)
    private(set) var count = 0

    private static func shard(of key: InteractionKey) -> Int {
        key.hashValue & (shardCount - 1)
    }

    subscript(key: InteractionKey) -> StoredInteraction? {
        shards[Self.shard(of: key)][key]
    }

    /// Where a record sits in its shard, for visiting records in an order of the caller's
    /// without hashing their keys again (``forEachPlace(_:)``); good while the shard is
    /// unchanged, as in a snapshot's copy.
    struct Place: Sendable {
        fileprivate let shard: Int
        fileprivate let index: [InteractionKey: StoredInteraction].Index
        /// The key's uid and app, read with the place: a visit then reads only the record.
        let uid: UInt32
        let app: AppNameTable.ID
    }

    /// Calls `body` with each record's sequence and place, a shard at a time, each shard
    /// read in memory order: no key is hashed and no table is probed.
    func forEachPlace(_ body: (_ sequence: UInt64, _ place: Place) -> Void) {
        for shard in shards.indices {
            let table = shards[shard]
            var index = table.startIndex
            while index != table.endIndex {
                let key = table.keys[index]
                body(table.values[index].sequence, Place(shard: shard, index: index, uid: key.uid, app: key.app))
                table.formIndex(after: &index)
            }
        }
    }

    /// The sequence of the record at `place`: a read of the record alone, without a copy.
    func sequence(at place: Place) -> UInt64 {
        shards[place.shard].values[place.index].sequence
    }

    /// The record at `place`.
    subscript(place: Place) -> StoredInteraction {
        shards[place.shard].values[place.index]
    }

    /// Stores `stored` at `key` unless a record is stored there already; returns that
    /// record, or nil when it stored `stored`. One hash lookup either way: a donation looks
    /// for its identifier and takes its place at once.
    mutating func insertIfAbsent(_ stored: consuming StoredInteraction, forKey key: InteractionKey) -> StoredInteraction? {
        // Moved into the table, not copied: a copy retains each of its strings and arrays.
        var pending: StoredInteraction? = consume stored
        func insert() -> StoredInteraction {
            pending.take()!
        }
        func existing(_ record: inout StoredInteraction) -> StoredInteraction? {
            pending == nil ? nil : record
        }
        let found = existing(&shards[Self.shard(of: key)][key, default: insert()])
        if pending == nil { count += 1 }
        return found
    }

    /// Stores `stored` at `key`; returns what it replaced.
    @discardableResult
    mutating func updateValue(_ stored: consuming StoredInteraction, forKey key: InteractionKey) -> StoredInteraction? {
        let replaced = shards[Self.shard(of: key)].updateValue(stored, forKey: key)
        if replaced == nil { count += 1 }
        return replaced
    }

    mutating func removeValue(forKey key: InteractionKey) -> StoredInteraction? {
        guard let removed = shards[Self.shard(of: key)].removeValue(forKey: key) else { return nil }
        count -= 1
        return removed
    }

    /// Makes room for `total` records when that is several a shard. Fewer grow their shards
    /// as they come: a floor in each of 16,384 shards held 56 MB for a snapshot of no
    /// interactions at all (issue 49, heraldd's memory after a restart).
    mutating func reserveCapacity(_ total: Int) {
        guard total >= 4 * Self.shardCount else { return }
        let each = total / Self.shardCount + total / Self.shardCount / 8 + 16
        for index in shards.indices where shards[index].capacity < each {
            shards[index].reserveCapacity(each)
        }
    }

    /// A record for ``insertAbsent(_:parallel:)``, taken out (nil) once stored.
    struct Insertion: Sendable {
        let key: InteractionKey
        var stored: StoredInteraction?
    }

    /// Stores each of `insertions` at its key, none of which is stored yet, and leaves
    /// them empty: grouped by shard, each shard made room for once and filled at once,
    /// the shards split among `parallel`'s threads when given — where inserting them one
    /// by one reaches a random shard each time (docs/performance.md, "Durability").
    mutating func insertAbsent(_ insertions: inout [Insertion], parallel: ParallelWork?) {
        let total = insertions.count
        guard total > 0 else { return }
        let run: ParallelWork = parallel ?? { count, work in
            for index in 0..<count { work(index) }
        }
        let parts = parallel == nil ? 1 : 64
        // Each record's shard, its key hashed on every thread.
        var shardOf = [UInt16](repeating: 0, count: total)
        insertions.withUnsafeBufferPointer { insertions in
            shardOf.withUnsafeMutableBufferPointer { shardOf in
                nonisolated(unsafe) let (insertions, shardOf) = (insertions, shardOf)
                run(parts) { part in
                    for index in Self.slice(part, of: parts, total) {
                        shardOf[index] = UInt16(truncatingIfNeeded: Self.shard(of: insertions[index].key))
                    }
                }
            }
        }
        // The records of shard `s` are `byShard[starts[s]..<starts[s + 1]]`, in the order given.
        var starts = [Int](repeating: 0, count: Self.shardCount + 1)
        for shard in shardOf { starts[Int(shard) + 1] += 1 }
        for shard in 0..<Self.shardCount { starts[shard + 1] += starts[shard] }
        var byShard = [Int32](repeating: 0, count: total)
        var next = starts
        for index in 0..<total {
            let shard = Int(shardOf[index])
            byShard[next[shard]] = Int32(index)
            next[shard] += 1
        }
        shards.withUnsafeMutableBufferPointer { shards in
            insertions.withUnsafeMutableBufferPointer { insertions in
                nonisolated(unsafe) let (shards, insertions) = (shards, insertions)
                let (starts, byShard) = (starts, byShard)
                run(parts) { part in
                    for shard in Self.slice(part, of: parts, Self.shardCount) where starts[shard] < starts[shard + 1] {
                        let range = starts[shard]..<starts[shard + 1]
                        shards[shard].reserveCapacity(shards[shard].count + range.count)
                        for position in range {
                            // The record a few on, started now: in an array past the caches, each
                            // one found by `byShard` would otherwise wait for memory.
                            if position + Self.prefetchDistance < byShard.count {
                                Self.prefetch(insertions, Int(byShard[position + Self.prefetchDistance]))
                            }
                            let index = Int(byShard[position])
                            shards[shard][insertions[index].key] = insertions[index].stored.take()
                        }
                    }
                }
            }
        }
        count += total
    }

    /// How many records ahead ``insertAbsent(_:parallel:)`` brings the next one in: about
    /// one wait for memory, at some 100 ns a record stored.
    private static let prefetchDistance = 8

    /// Brings in the lines `insertions[index]` lies on, without waiting for them.
    private static func prefetch(_ insertions: UnsafeMutableBufferPointer<Insertion>, _ index: Int) {
        let start = UnsafeRawPointer(insertions.baseAddress! + index)
        herald_prefetch(start)
        herald_prefetch(start + MemoryLayout<Insertion>.size - 1)
    }

    /// Part `part` of `parts` equal parts of `0..<total`.
    private static func slice(_ part: Int, of parts: Int, _ total: Int) -> Range<Int> {
        (total * part / parts)..<(total * (part + 1) / parts)
    }
}
