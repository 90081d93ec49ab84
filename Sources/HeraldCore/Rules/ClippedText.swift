/// A text cut to a number of UTF-8 bytes on a character's edge, for what Herald keeps of a
/// client's names where a byte bound must hold (a Focus digest's names).
///
/// Bytes, not characters: one character may be a letter and thousands of combining marks,
/// so a bound in characters bounds nothing. A text cut ends in "…", within the bound; a
/// first character longer than the bound leaves "…" alone.
enum ClippedText {
    static let ellipsis = "…"

    /// `text` when it is at most `maxBytes` of UTF-8, else its longest start of whole
    /// characters that leaves room for "…", then "…". Reads at most about `maxBytes` of
    /// `text` beyond its first character.
    static func clipped(_ text: String, maxBytes: Int) -> String {
        guard text.utf8.count > maxBytes else { return text }
        let room = maxBytes - ellipsis.utf8.count
        guard room > 0 else { return "" }
        var end = text.startIndex
        var bytes = 0
        // Character by character: a grapheme break is found by reading only as far as the
        // character's end, so a character of megabytes costs its own length once.
        while end < text.endIndex {
            let next = text.index(after: end)
            let length = text.utf8.distance(from: end, to: next)
            guard bytes + length <= room else { break }
            bytes += length
            end = next
        }
        return String(text[..<end]) + ellipsis
    }
}
