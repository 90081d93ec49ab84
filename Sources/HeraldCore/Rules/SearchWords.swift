import HeraldProtocol

/// The words a search compares: runs of letters and digits, folded so that case and
/// diacritics do not matter ("Élan" and "elan" are one word). Everything else — spaces,
/// punctuation, the `@` and `.` of an address — separates words, so `ann@example.org`
/// is found by `ann`, `example` or `org`.
enum SearchWords {
    /// A word longer than this is cut here: no one types more to find it, and a text of
    /// one long word must not make a term of a megabyte.
    static let maxWordBytes = 64

    /// The folded words of `text`, in order, repeats included.
    static func words(in text: String) -> [String] {
        var words: [String] = []
        forEachWord(in: text) { words.append($0) }
        return words
    }

    /// Calls `body` with each folded word of `text`. ASCII is folded byte by byte; a word
    /// with other letters by `SearchFolding` (case, diacritics and width, no locale).
    static func forEachWord(in text: String, _ body: (String) -> Void) {
        var text = text
        text.makeContiguousUTF8()
        _ = text.utf8.withContiguousStorageIfAvailable { bytes in
            var start = 0
            var index = 0
            var ascii = true
            func finish(_ end: Int) {
                guard end > start else { return }
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if ascii {
                    let length = min(slice.count, maxWordBytes)
                    body(String(unsafeUninitializedCapacity: length) { out in
                        for i in 0..<length { out[i] = lowercased(slice[i]) }
                        return length
                    })
                } else {
                    foldNonASCII(String(decoding: slice, as: UTF8.self), body)
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    if isWordByte(byte) {
                        index += 1
                        continue
                    }
                    finish(index)
                    index += 1
                    start = index
                    ascii = true
                } else {
                    // A non-ASCII scalar: part of the word when it is a letter, a digit or
                    // a combining mark; otherwise a separator (a dash, a quote, an emoji).
                    let length = scalarLength(byte)
                    let end = min(index + length, bytes.count)
                    let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self).unicodeScalars.first
                    if let scalar, isWordScalar(scalar) {
                        ascii = false
                        index = end
                        continue
                    }
                    finish(index)
                    index = end
                    start = index
                    ascii = true
                }
            }
            finish(index)
        }
    }

    /// Folds a word with letters beyond ASCII, and cuts it at `maxWordBytes` on a
    /// character's edge. Folding may split it (a ligature), so its words are passed on.
    private static func foldNonASCII(_ word: String, _ body: (String) -> Void) {
        let folded = SearchFolding.fold(word)
        for part in folded.unicodeScalars.split(whereSeparator: { !isWordScalar($0) }) {
            var kept = ""
            for character in String(String.UnicodeScalarView(part)) {
                guard kept.utf8.count + character.utf8.count <= maxWordBytes else { break }
                kept.append(character)
            }
            if !kept.isEmpty { body(kept) }
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    private static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
    }

    /// The words a notification is found by: its title, subtitle and body, its sender's
    /// name and address, its conversation's identifier. Its app is matched apart, by name.
    static func forEachWord(of content: NotificationContent, _ body: (String) -> Void) {
        forEachText(of: content) { forEachWord(in: $0, body) }
    }

    /// The texts whose words a notification is found by, in order.
    static func forEachText(of content: NotificationContent, _ body: (String) -> Void) {
        if let text = content.title { body(text) }
        if let text = content.subtitle { body(text) }
        if let text = content.body { body(text) }
        if let text = content.threadIdentifier { body(text) }
        guard let communication = content.communication else { return }
        if let conversation = communication.conversationIdentifier { body(conversation) }
        guard let sender = communication.sender else { return }
        if let text = sender.displayName { body(text) }
        if let text = sender.handle?.value { body(text) }
        if let names = sender.nameComponents {
            for text in [names.givenName, names.familyName, names.nickname] {
                if let text { body(text) }
            }
        }
    }
}
