import HeraldProtocol

/// One uid's notifications by the words they are found by (``SearchWords``): what
/// `search-notifications` reads, kept as the list changes so that a search reads no
/// notification's text.
///
/// Each notification put in the list is a document, numbered in the order it came; a
/// word's postings are the numbers of the documents that have it, ascending. A removed
/// notification's document is only marked gone, and its numbers are dropped from the
/// postings once the gone outweigh the kept (``isWasteful``), all at once: a removal
/// costs no search through the postings of its words.
///
/// Bounded in bytes: each document weighs what it can hold here (``weight(of:)``), and
/// its list counts that in `--max-notification-bytes` beside the notification's own
/// bytes; the gone are dropped once they weigh half the kept. A search reads at most
/// ``maxSearchReads`` entries (``SearchReads``).
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
    /// By a word's first byte, the documents with a word starting with it, ascending: a
    /// one-letter word is answered from its byte's list rather than from every word it
    /// begins (a list of distinct words has hundreds of thousands).
    private var documentsByFirstByte = [[DocumentNumber]](repeating: [], count: 256)
    /// Each document's ``weight(of:)``, and what the kept and the gone weigh together.
    private var weights: [Int] = []
    private(set) var liveBytes = 0
    private(set) var goneBytes = 0

    init() {}

    /// An empty index, made once: what a snapshot's copy of a list holds
    /// (``NotificationList/UIDList/forSnapshot()``) without allocating its own.
    static let none = NotificationSearchIndex()

    /// How many documents are numbered, gone ones included.
    var documentCount: Int { keys.count }

    /// Adds a notification's document; returns its number, for ``remove(_:)``, and its
    /// weight, which ``weight(of:)`` gives for the same content.
    mutating func add(key: NotificationList.Key, place: NotificationCursor, content: NotificationContent) -> (number: DocumentNumber, bytes: Int) {
        let number = DocumentNumber(keys.count)
        keys.append(key)
        places.append(place)
        apps.append(key.app)
        liveCount += 1
        var bytes = Self.documentBytes
        var firstBytes = ByteSet()
        SearchWords.forEachWord(of: content) { word in
            if let index = postings.index(forKey: word) {
                guard postings.values[index].last != number else { return }
                postings.values[index].append(number)
            } else {
                postings[word] = [number]
                wordsByLead[Self.lead(of: word), default: []].append(word)
            }
            bytes += Self.bytes(ofWord: word)
            let first = word.utf8.first!
            if firstBytes.insert(first) {
                documentsByFirstByte[Int(first)].append(number)
                bytes += Self.postingBytes
            }
        }
        weights.append(bytes)
        liveBytes += bytes
        return (number, bytes)
    }

    /// Marks a document gone.
    mutating func remove(_ number: DocumentNumber) {
        guard keys[Int(number)] != nil else { return }
        keys[Int(number)] = nil
        liveCount -= 1
        liveBytes -= weights[Int(number)]
        goneBytes += weights[Int(number)]
    }

    /// Whether the gone documents outweigh the kept enough to drop them: by count (each
    /// holds its key and place), or by weight, so that what the index holds for gone
    /// documents is at most half what it holds for kept ones (or ``minimumWasteBytes``).
    var isWasteful: Bool {
        let gone = keys.count - liveCount
        return (gone > 1024 && gone > liveCount) || goneBytes > max(liveBytes / 2, Self.minimumWasteBytes)
    }

    /// Drops the gone documents and numbers the kept ones afresh, in the same order;
    /// returns the new number of each old one (nil for a gone one), for the entries.
    mutating func compact() -> [DocumentNumber?] {
        var renumbered = [DocumentNumber?](repeating: nil, count: keys.count)
        var kept = (keys: [NotificationList.Key?](), places: [NotificationCursor](), apps: [AppNameTable.ID](), weights: [Int]())
        kept.keys.reserveCapacity(liveCount)
        kept.places.reserveCapacity(liveCount)
        kept.apps.reserveCapacity(liveCount)
        kept.weights.reserveCapacity(liveCount)
        for number in keys.indices {
            guard let key = keys[number] else { continue }
            renumbered[number] = DocumentNumber(kept.keys.count)
            kept.keys.append(key)
            kept.places.append(places[number])
            kept.apps.append(apps[number])
            kept.weights.append(weights[number])
        }
        (keys, places, apps, weights) = kept
        goneBytes = 0
        for byte in documentsByFirstByte.indices where !documentsByFirstByte[byte].isEmpty {
            _ = Self.renumber(&documentsByFirstByte[byte], by: renumbered)
        }
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

    /// The documents that have a word starting with `prefix`, as a set of numbers; nil
    /// when reading them would take `reads` past its budget.
    ///
    /// A prefix of one byte reads its byte's documents; a longer one the words of its
    /// first two bytes, then the postings of those it begins.
    func documents(withWordStartingWith prefix: String, reads: inout SearchReads) -> DocumentSet? {
        var set = DocumentSet(count: keys.count)
        guard reads.take(set.wordCount) else { return nil }
        guard prefix.utf8.count >= 2 else {
            let numbers = documentsByFirstByte[Int(prefix.utf8.first ?? 0)]
            guard reads.take(numbers.count) else { return nil }
            set.insert(contentsOf: numbers)
            return set
        }
        let words = wordsByLead[Self.lead(of: prefix)] ?? []
        guard reads.take(words.count) else { return nil }
        for word in words where word.utf8.starts(with: prefix.utf8) {
            guard let numbers = postings[word] else { continue }
            guard reads.take(SearchReads.lookup + numbers.count) else { return nil }
            set.insert(contentsOf: numbers)
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
        Self.unshareLong(&copy.postings)
        Self.unshareLong(&copy.wordsByLead)
        return copy
    }

    /// Gives `dictionary` storage of its own, and each of its lists of at least
    /// ``unsharedLength``.
    private static func unshareLong<Key, Element>(_ dictionary: inout [Key: [Element]]) {
        dictionary.reserveCapacity(dictionary.count)
        var index = dictionary.startIndex
        while index != dictionary.endIndex {
            let count = dictionary.values[index].count
            if count >= unsharedLength { dictionary.values[index].reserveCapacity(count) }
            dictionary.formIndex(after: &index)
        }
    }

    /// How many words the index knows, and how many postings it keeps: for the benchmark.
    var counts: (words: Int, postings: Int) {
        (postings.count, postings.values.reduce(0) { $0 + $1.count })
    }

    /// How many words the prefix table lists: as many as ``counts``' words while the two
    /// agree, which a test checks after a compaction.
    var wordsListedByLead: Int { wordsByLead.values.reduce(0) { $0 + $1.count } }
}
