/// What one uid holds of the store: how many interactions, of which apps, and their
/// keys in donation order — so that a uid at its limit evicts its own oldest, and the
/// apps it uses are counted, without a scan of anyone else's.
///
/// Derived from the interactions: a start rebuilds it as it inserts them.
struct UIDShare: Sendable {
    private(set) var count = 0
    /// Interactions by app.
    private(set) var apps: [AppNameTable.ID: Int] = [:]
    /// This uid's keys in donation order; removed ones stay behind as stale entries until
    /// compaction.
    var order = DonationOrder(reservingBlocks: false)

    mutating func add(_ entry: DonationOrder.Entry) {
        count += 1
        apps[entry.key.app, default: 0] += 1
        order.append(entry)
    }

    /// Counts the interaction at `key` out (its order entry turns stale).
    mutating func remove(_ key: InteractionKey) {
        count -= 1
        if let left = apps[key.app], left > 1 {
            apps[key.app] = left - 1
        } else {
            apps.removeValue(forKey: key.app)
        }
    }

    /// After the removal of donation `sequence`: moves the head past it when it is the
    /// oldest (``DonationOrder/advanceHead(pastRemoved:)``), and drops stale entries in
    /// between once they outnumber the live ones, a few positions at a time
    /// (``DonationOrder/compact(liveCount:threshold:budget:keeping:)``).
    mutating func compactIfStale(afterRemoving sequence: UInt64, keeping isLive: (DonationOrder.Entry) -> Bool) {
        order.advanceHead(pastRemoved: sequence)
        order.compact(
            liveCount: count, threshold: 64, budget: InteractionStore.compactionPositionsPerChange, keeping: isLive
        )
    }
}
