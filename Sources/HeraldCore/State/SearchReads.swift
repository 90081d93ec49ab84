/// What a search has read of an index, against ``NotificationSearchIndex/maxSearchReads``:
/// a posting or a word compared is one, a word looked up in the table of postings or an
/// app's name folded ``lookup``, a set of documents made its words of bits. What the
/// index holds is bounded by `--max-notification-bytes`, and so is one word's reading;
/// this bounds a query of 16 words whatever the limit (at the default 32 MiB none comes
/// near it: docs/performance.md#search).
struct SearchReads: Sendable {
    /// What a hash lookup or a name's folding costs, against a posting's read.
    static let lookup = 16

    let budget: Int
    private(set) var count = 0

    init(budget: Int = NotificationSearchIndex.maxSearchReads) {
        self.budget = budget
    }

    /// Counts `reads` more; false once the count passes the budget.
    mutating func take(_ reads: Int) -> Bool {
        count += reads
        return count <= budget
    }
}

extension NotificationSearchIndex {
    /// The most a search reads (``SearchReads``): about 85 ms of CPU on the benchmark's
    /// machine (docs/performance.md#search); a query that would read more is refused.
    static let maxSearchReads = 1 << 24
}
