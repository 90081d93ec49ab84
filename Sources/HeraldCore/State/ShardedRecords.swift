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
}
