import HeraldProtocol

/// One uid's notifications by the words they are found by (``SearchWords``): what
/// `search-notifications` reads, kept as the list changes so that a search reads no
/// notification's text.
///
/// Each notification put in the list is a document, numbered in the order it came; a
/// word's postings are the numbers of the documents that have it, ascending. A removed
/// notification's document is only marked gone, and its numbers are dropped from the
/// postings once the gone outnumber the kept (``isWasteful``), all at once: a removal
/// costs no search through the postings of its words.
struct NotificationSearchIndex: Sendable {
    typealias DocumentNumber = UInt32

    /// What a search needs of a notification without looking it up, by document number,
    /// in arrays of their own so that reading them takes no reference: its key (nil once
    /// it left the list), to look it up once it is on the page; its place, to order and
    /// page; its app.
    private(set) var keys: [NotificationList.Key?] = []
    private(set) var places: [NotificationCursor] = []
    private(set) var apps: [AppNameTable.ID] = []
    private(set) var liveCount = 0
    /// Each word's documents, ascending.
    private var postings: [String: [DocumentNumber]] = [:]
    /// The words by their first two bytes, so that a prefix is compared with few words.
    private var wordsByLead: [UInt16: [String]] = [:]

    init() {}

    /// How many documents are numbered, gone ones included.
    var documentCount: Int { keys.count }

    /// Adds a notification's document; returns its number, for ``remove(_:)``.
    mutating func add(key: NotificationList.Key, place: NotificationCursor, content: NotificationContent) -> DocumentNumber {
        let number = DocumentNumber(keys.count)
        keys.append(key)
        places.append(place)
        apps.append(key.app)
        liveCount += 1
        SearchWords.forEachWord(of: content) { word in
            if let index = postings.index(forKey: word) {
                if postings.values[index].last != number { postings.values[index].append(number) }
            } else {
                postings[word] = [number]
                wordsByLead[Self.lead(of: word), default: []].append(word)
            }
        }
        return number
    }

    /// Marks a document gone.
    mutating func remove(_ number: DocumentNumber) {
        guard keys[Int(number)] != nil else { return }
        keys[Int(number)] = nil
        liveCount -= 1
    }

    /// Whether the gone documents outnumber the kept ones enough to drop them.
    var isWasteful: Bool {
        let gone = keys.count - liveCount
        return gone > 1024 && gone > liveCount
    }

    /// Drops the gone documents and numbers the kept ones afresh, in the same order;
    /// returns the new number of each old one (nil for a gone one), for the entries.
    mutating func compact() -> [DocumentNumber?] {
        var renumbered = [DocumentNumber?](repeating: nil, count: keys.count)
        var kept = (keys: [NotificationList.Key?](), places: [NotificationCursor](), apps: [AppNameTable.ID]())
        kept.keys.reserveCapacity(liveCount)
        kept.places.reserveCapacity(liveCount)
        kept.apps.reserveCapacity(liveCount)
        for number in keys.indices {
            guard let key = keys[number] else { continue }
            renumbered[number] = DocumentNumber(kept.keys.count)
            kept.keys.append(key)
            kept.places.append(places[number])
            kept.apps.append(apps[number])
        }
        (keys, places, apps) = kept
        var emptied: [String] = []
        // Each list is renumbered in place, walked by index: a copy of a list, or a second
        // reference to the table (`postings.indices`), would make the change copy it all.
        var index = postings.startIndex
        while index != postings.endIndex {
            if Self.renumber(&postings.values[index], by: renumbered) { emptied.append(postings.keys[index]) }
            postings.formIndex(after: &index)
        }
        var emptiedLeads: Set<UInt16> = []
        for word in emptied {
            postings[word] = nil
            emptiedLeads.insert(Self.lead(of: word))
        }
        // Each lead's words filtered once, not once per emptied word: a removal of thousands
        // of notifications with distinct words (order numbers share a few leads) empties
        // thousands of words of the same lead, and a search per word made it quadratic.
        let words = postings
        for lead in emptiedLeads {
            guard let position = wordsByLead.index(forKey: lead) else { continue }
            wordsByLead.values[position].removeAll { words[$0] == nil }
            if wordsByLead.values[position].isEmpty { wordsByLead.remove(at: position) }
        }
        return renumbered
    }

    /// Gives each kept document of `list` its new number and drops the gone ones, in place;
    /// true when none is left.
    private static func renumber(_ list: inout [DocumentNumber], by renumbered: [DocumentNumber?]) -> Bool {
        var write = 0
        for read in list.indices {
            if let new = renumbered[Int(list[read])] {
                list[write] = new
                write += 1
            }
        }
        list.removeSubrange(write...)
        return list.isEmpty
    }

    /// The documents that have a word starting with `prefix`, as a set of numbers.
    func documents(withWordStartingWith prefix: String) -> DocumentSet {
        var set = DocumentSet(count: keys.count)
        let lead = Self.lead(of: prefix)
        let leads: [UInt16] =
            prefix.utf8.count >= 2 ? [lead] : wordsByLead.keys.filter { $0 >> 8 == lead >> 8 }
        for lead in leads {
            for word in wordsByLead[lead] ?? [] where word.utf8.starts(with: prefix.utf8) {
                if let numbers = postings[word] { set.insert(contentsOf: numbers) }
            }
        }
        return set
    }

    /// A word's first two bytes, the second 0 for a word of one.
    private static func lead(of word: String) -> UInt16 {
        var bytes = word.utf8.makeIterator()
        let first = UInt16(bytes.next() ?? 0)
        let second = UInt16(bytes.next() ?? 0)
        return first << 8 | second
    }

    /// A word's postings, or a lead's words, at least this long are copied by ``unshared()``;
    /// shorter ones stay shared, and a change copies the few it touches (a notification's
    /// words) under the lock for a few hundred bytes each. Copying every short one made the
    /// copy of a list of 10,000 with order and tracking numbers allocate once per word.
    static let unsharedLength = 256

    /// This index with storage of its own, each long list of postings or words too: made
    /// after the state's lock for a list a reader holds, so that the next change copies
    /// nothing long under it.
    func unshared() -> NotificationSearchIndex {
        var copy = self
        copy.keys.reserveCapacity(keys.count)
        copy.places.reserveCapacity(places.count)
        copy.apps.reserveCapacity(apps.count)
        copy.postings.reserveCapacity(postings.count)
        var index = copy.postings.startIndex
        while index != copy.postings.endIndex {
            let count = copy.postings.values[index].count
            if count >= Self.unsharedLength { copy.postings.values[index].reserveCapacity(count) }
            copy.postings.formIndex(after: &index)
        }
        copy.wordsByLead.reserveCapacity(wordsByLead.count)
        var lead = copy.wordsByLead.startIndex
        while lead != copy.wordsByLead.endIndex {
            let count = copy.wordsByLead.values[lead].count
            if count >= Self.unsharedLength { copy.wordsByLead.values[lead].reserveCapacity(count) }
            copy.wordsByLead.formIndex(after: &lead)
        }
        return copy
    }

    /// How many words the index knows, and how many postings it keeps: for the benchmark.
    var counts: (words: Int, postings: Int) {
        (postings.count, postings.values.reduce(0) { $0 + $1.count })
    }

    /// How many words the prefix table lists: as many as ``counts``' words while the two
    /// agree, which a test checks after a compaction.
    var wordsListedByLead: Int { wordsByLead.values.reduce(0) { $0 + $1.count } }
}

/// Document numbers as bits: a search's sets for each of its words, intersected by reading.
struct DocumentSet: Sendable {
    private var words: [UInt64]

    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

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
