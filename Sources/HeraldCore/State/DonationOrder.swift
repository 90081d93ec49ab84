/// The keys of stored interactions in donation order, with a moving head: the oldest
/// leaves in O(1), and entries of interactions removed out of order stay behind as stale
/// until compaction drops them.
///
/// Kept in blocks of 16,384 entries rather than one array, for the same reason as
/// ``ShardedRecords``: after a snapshot's copy, an append copies the last block, not a
/// million entries.
struct DonationOrder: Sendable {
    struct Entry: Sendable {
        var key: InteractionKey
        var sequence: UInt64
    }

    private static let blockSize = 1 << 14
    private var blocks: [[Entry]] = []
    /// Whether each new block is allocated whole at once (the store's own order), or
    /// grows as entries come (a uid's, which may hold a handful).
    private let reservesBlocks: Bool
    /// The position of the oldest entry not yet passed.
    private(set) var head = 0
    /// One past the newest entry's position.
    private(set) var end = 0

    init(reservingBlocks: Bool = true) {
        self.reservesBlocks = reservingBlocks
    }

    /// Entries between head and end, stale ones included.
    var count: Int { end - head }

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

    /// Moves the head past one entry, and frees each block it leaves behind.
    mutating func advanceHead() {
        head += 1
        if head % Self.blockSize == 0 {
            blocks[head / Self.blockSize - 1] = []
        }
    }

    /// Keeps only the entries from head on that `isLive` selects, from position 0.
    mutating func compact(keeping isLive: (Entry) -> Bool) {
        var kept = DonationOrder(reservingBlocks: reservesBlocks)
        for position in head..<end where isLive(self[position]) {
            kept.append(self[position])
        }
        self = kept
    }

    mutating func reserveCapacity(_ total: Int) {
        blocks.reserveCapacity(blocks.count + total / Self.blockSize + 1)
    }
}
