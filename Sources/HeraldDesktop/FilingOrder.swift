import DequeModule

/// Ids in the order they were filed, oldest first, for queues whose ids leave out of turn:
/// an id removed, or filed again (which moves it to the end), leaves its old entry behind,
/// passed over when it comes first. Each filing has a stamp, and only an id's last is
/// current. Once entries passed over outnumber the ids filed, they are dropped in one pass,
/// so the entries stay within twice the ids (or 128) at O(1) a filing, amortized: an app
/// that replaces or withdraws one notification again and again leaves no trail.
package struct FilingOrder<ID: Hashable & Sendable>: Sendable {
    private var entries: Deque<(id: ID, stamp: Int)> = []
    /// The stamp of each id's last filing, while it is filed.
    private var current: [ID: Int] = [:]
    private var stamps = 0

    package init() {}

    /// Entries kept, current or not: at most twice the ids filed, or 128.
    package var entryCount: Int { entries.count }

    /// Files `id` last; one filed already moves to the end.
    package mutating func file(_ id: ID) {
        stamps += 1
        current[id] = stamps
        entries.append((id, stamps))
        if entries.count > 2 * max(current.count, 64) {
            entries.removeAll { current[$0.id] != $0.stamp }
        }
    }

    /// Takes `id` out of the order.
    package mutating func remove(_ id: ID) {
        current[id] = nil
    }

    /// The oldest id filed, left filed; entries passed over on the way are dropped.
    package mutating func first() -> ID? {
        while let entry = entries.first {
            if current[entry.id] == entry.stamp { return entry.id }
            entries.removeFirst()
        }
        return nil
    }

    /// Takes the oldest id filed out of the order.
    package mutating func popFirst() -> ID? {
        guard let id = first() else { return nil }
        entries.removeFirst()
        current[id] = nil
        return id
    }
}
