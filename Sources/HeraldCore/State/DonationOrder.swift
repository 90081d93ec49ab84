/// The keys of stored interactions in donation order, with a moving head: the oldest
/// leaves in O(1), and entries of interactions removed out of order stay behind as stale
/// until compaction drops them. Sequences rise with position: entries are appended in
/// donation order, and compaction keeps their order.
///
/// Kept in blocks of 16,384 entries rather than one array, for the same reason as
/// ``ShardedRecords``: after a snapshot's copy, an append copies the last block, not a
/// million entries.
///
/// Compaction runs a bounded number of positions at a time
/// (``compact(liveCount:threshold:budget:keeping:)``), never the whole order at once: one pass
/// under the state's lock would hold every request up for as long (docs/performance.md,
/// "Work that leaves the event loop").
struct DonationOrder: Sendable {
    struct Entry: Sendable {
        var key: InteractionKey
        var sequence: UInt64
    }

    /// The entries, from position 0.
    private var entries: Blocks
    /// A compaction under way: the live entries copied so far, and the next position to
    /// look at. Entries appended meanwhile are reached in turn; it ends at the last one.
    private var compaction: (kept: Blocks, cursor: Int)?

    init(reservingBlocks: Bool = true) {
        self.entries = Blocks(reservingBlocks: reservingBlocks)
    }

    /// The position of the oldest entry not yet passed.
    var head: Int { entries.head }
    /// One past the newest entry's position.
    var end: Int { entries.end }
    /// Entries between head and end, stale ones included.
    var count: Int { entries.end - entries.head }
    /// Whether a compaction is under way.
    var isCompacting: Bool { compaction != nil }

    subscript(position: Int) -> Entry { entries[position] }

    mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    /// Moves the head past one entry, and frees each block it leaves behind.
    mutating func advanceHead() {
        entries.advanceHead()
    }

    /// Moves the head past the entry of the removed donation `sequence` when it is the
    /// oldest, so that removing the oldest leaves no stale entry behind; without a look-up,
    /// so stale entries behind it are left to compaction.
    mutating func advanceHead(pastRemoved sequence: UInt64) {
        guard entries.head < entries.end, entries[entries.head].sequence == sequence else { return }
        entries.advanceHead()
    }

    /// Looks at up to `budget` positions of a compaction, starting one when more than
    /// `threshold` entries are stale and they outnumber the `liveCount` live ones; when the
    /// compaction reaches the end, only the entries `isLive` selected remain, from position 0.
    ///
    /// An entry that turns stale after it was copied stays, stale, in the compacted order;
    /// every reader of the order already skips stale entries.
    mutating func compact(liveCount: Int, threshold: Int, budget: Int, keeping isLive: (Entry) -> Bool) {
        var running: (kept: Blocks, cursor: Int)
        if let compaction {
            running = compaction
            self.compaction = nil  // the kept blocks stay uniquely referenced
        } else {
            let stale = count - liveCount
            guard stale > threshold, stale > liveCount else { return }
            running = (Blocks(reservingBlocks: entries.reservesBlocks), entries.head)
        }
        running.cursor = max(running.cursor, entries.head)
        let stop = min(entries.end, running.cursor + max(budget, 1))
        while running.cursor < stop {
            let entry = entries[running.cursor]
            if isLive(entry) { running.kept.append(entry) }
            running.cursor += 1
        }
        if running.cursor == entries.end {
            entries = running.kept
        } else {
            compaction = running
        }
    }

    mutating func reserveCapacity(_ total: Int) {
        entries.reserveCapacity(total)
    }
}

extension DonationOrder {
    /// The entries themselves, in blocks, with the head and end positions.
    fileprivate struct Blocks: Sendable {
        private static let blockSize = 1 << 14
        private var blocks: [[Entry]] = []
        /// Whether each new block is allocated whole at once (the store's own order), or
        /// grows as entries come (a uid's, which may hold a handful).
        let reservesBlocks: Bool
        private(set) var head = 0
        private(set) var end = 0

        init(reservingBlocks: Bool) {
            self.reservesBlocks = reservingBlocks
        }

        subscript(position: Int) -> Entry {
            blocks[position / Self.blockSize][position % Self.blockSize]
        }

        mutating func append(_ entry: Entry) {
            if end % Self.blockSize == 0 {
                var block: [Entry] = []
                if reservesBlocks { block.reserveCapacity(Self.blockSize) }
                blocks.append(block)
            }
            blocks[blocks.count - 1].append(entry)
            end += 1
        }

        mutating func advanceHead() {
            head += 1
            if head % Self.blockSize == 0 {
                blocks[head / Self.blockSize - 1] = []
            }
        }

        mutating func reserveCapacity(_ total: Int) {
            blocks.reserveCapacity(blocks.count + total / Self.blockSize + 1)
        }
    }
}
