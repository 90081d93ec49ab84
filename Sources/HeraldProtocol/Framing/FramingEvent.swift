/// What `JSONTextFramer` found next in the bytes it was shown.
package enum FramingEvent: Sendable, Equatable {
    /// One complete text, at `range` of the bytes shown: it begins with `{` or `[` and its
    /// brackets balance outside strings. `parsed` is its tape when the framer read it with
    /// the parser in the same scan that found its end (the common case: the text had
    /// arrived whole); nil when the parser is still to read it — and to say what is wrong
    /// with it, nesting too deep included.
    case text(Range<Int>, parsed: JSONTape?)
    /// A text that does not begin with `{` or `[`: everything up to and including the next
    /// newline was skipped. `preview` is the line's first 40 bytes at most, decoded lossily.
    case garbage(preview: String)
    /// A text (or a garbage line) grew past the limit in bytes. The framer returns nothing
    /// after this: the caller answers and closes the connection.
    case tooLarge(limit: Int)
    /// The input ended inside a text; `preview` is its first 40 bytes at most, decoded
    /// lossily. Only `finish(in:)` reports this.
    case truncated(preview: String)
}

extension FramingEvent {
    /// At most this many bytes of a skipped text are kept for its preview.
    static let previewLimit = 40

    /// The lossy UTF-8 preview of `bytes`, without a trailing carriage return.
    static func preview(_ bytes: some Collection<UInt8>) -> String {
        var slice = Array(bytes.prefix(previewLimit))
        if slice.last == UInt8(ascii: "\r") {
            slice.removeLast()
        }
        return String(decoding: slice, as: UTF8.self)
    }
}
