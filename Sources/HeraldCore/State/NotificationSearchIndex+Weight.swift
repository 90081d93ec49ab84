import HeraldProtocol

/// What a document weighs in a search index, counted in its list's
/// `--max-notification-bytes` (issue 49: one uid's list of 32 MiB of distinct words held
/// an index of 600 MB).
///
/// A document's weight is what the index may hold for it if no other document shares its
/// words: its own entries (``documentBytes``), and for each distinct word a posting, the
/// word's entry in both tables and, past 15 bytes, its text (``bytes(ofWord:)``), and a
/// posting for each distinct first byte. Words another document shares are held once, so
/// the weights of the kept documents bound what the index holds for them; the figures
/// are what malloc holds for a list of distinct words (`herald-bench search
/// --distinct-words`, docs/performance.md#search). A weight depends on the content alone:
/// a list restored from a snapshot weighs the same.
extension NotificationSearchIndex {
    /// A document's key, place, app and weight, in arrays that grow by doubling.
    static let documentBytes = 96
    /// A number in a list of postings, which grows by doubling.
    static let postingBytes = 8
    /// A word's entry: its slot in the table of postings and its list's allocation, and
    /// its slot in the table by lead.
    static let wordEntryBytes = 160
    /// A word longer than 15 bytes is stored apart (Swift keeps shorter ones inline):
    /// this, and its bytes.
    static let longWordBytes = 48
    /// The gone documents' weight below which they are never dropped for their weight.
    static let minimumWasteBytes = 256 << 10

    /// What a distinct word of a document weighs: its posting, and its entry as if it were
    /// the word's only document.
    static func bytes(ofWord word: String) -> Int {
        let count = word.utf8.count
        return postingBytes + wordEntryBytes + (count > 15 ? longWordBytes + count : 0)
    }

    /// What `content`'s document weighs: what ``add(key:place:content:)`` returns for it.
    static func weight(of content: NotificationContent) -> Int {
        var weight = documentBytes
        var words: Set<String> = []
        var firstBytes = ByteSet()
        SearchWords.forEachWord(of: content) { word in
            guard words.insert(word).inserted else { return }
            weight += bytes(ofWord: word)
            if firstBytes.insert(word.utf8.first!) { weight += postingBytes }
        }
        return weight
    }

    /// At least ``weight(of:)``, from the lengths of the texts alone: each word takes a
    /// byte of its text and a separator, folding makes at most three scalars of one (of
    /// two bytes or more), and no word weighs more than a long word of 64 bytes.
    static func weightBound(of content: NotificationContent) -> Int {
        var textBytes = 0
        var texts = 0
        SearchWords.forEachText(of: content) { text in
            textBytes += text.utf8.count
            texts += 1
        }
        let mostWords = 2 * textBytes + texts
        let heaviestWord = postingBytes + wordEntryBytes + longWordBytes + SearchWords.maxWordBytes + postingBytes
        return documentBytes + mostWords * heaviestWord
    }
}

/// A set of bytes, as four words of bits.
struct ByteSet {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Inserts `byte`; true when it was not in the set.
    mutating func insert(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        let was: UInt64
        switch byte >> 6 {
        case 0: (was, bits.0) = (bits.0, bits.0 | bit)
        case 1: (was, bits.1) = (bits.1, bits.1 | bit)
        case 2: (was, bits.2) = (bits.2, bits.2 | bit)
        default: (was, bits.3) = (bits.3, bits.3 | bit)
        }
        return was & bit == 0
    }
}
