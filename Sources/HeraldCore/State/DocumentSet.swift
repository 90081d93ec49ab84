/// Document numbers as bits: a search's sets for each of its words, intersected by reading.
struct DocumentSet: Sendable {
    private var words: [UInt64]

    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    /// How many words of bits it takes: what making it costs.
    var wordCount: Int { words.count }

    /// How many numbers were inserted (one inserted twice counts twice: postings hold a
    /// number once a word, and a prefix's words rarely share one).
    private(set) var insertions = 0

    mutating func insert(_ number: NotificationSearchIndex.DocumentNumber) {
        words[Int(number) >> 6] |= 1 << (UInt64(number) & 63)
        insertions += 1
    }

    /// Inserts a word's postings: a short prefix's words hold a million of them.
    mutating func insert(contentsOf numbers: [NotificationSearchIndex.DocumentNumber]) {
        words.withUnsafeMutableBufferPointer { bits in
            numbers.withUnsafeBufferPointer { numbers in
                for number in numbers {
                    precondition(Int(number) >> 6 < bits.count)
                    bits[Int(number) >> 6] |= 1 << (UInt64(number) & 63)
                }
            }
        }
        insertions += numbers.count
    }

    /// Calls `body` with each number in the set, largest first, until it returns false.
    func forEachDescending(_ body: (NotificationSearchIndex.DocumentNumber) -> Bool) {
        for index in words.indices.reversed() {
            var bits = words[index]
            while bits != 0 {
                let top = 63 - bits.leadingZeroBitCount
                bits &= ~(1 << UInt64(top))
                guard body(NotificationSearchIndex.DocumentNumber(index << 6 | top)) else { return }
            }
        }
    }

    func contains(_ number: NotificationSearchIndex.DocumentNumber) -> Bool {
        words[Int(number) >> 6] & (1 << (UInt64(number) & 63)) != 0
    }
}
