/// Why a JSON text could not be read, and where.
///
/// `reason` is a sentence for a person and already names the byte offset, so a server can
/// put it straight into a parse error's `data.reason`.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as a sentence: "Expected ':' after an object key at byte 17."
    package var reason: String
    /// The zero-based byte offset into the text where reading stopped.
    package var offset: Int
    /// Whether the text nested arrays and objects deeper than the parser's limit.
    ///
    /// A server answers this with "Invalid Request" rather than "Parse error": the text
    /// may be valid JSON, it is only too deep for Herald.
    package var isDepthExceeded: Bool

    package init(reason: String, offset: Int, isDepthExceeded: Bool = false) {
        self.reason = reason
        self.offset = offset
        self.isDepthExceeded = isDepthExceeded
    }

    package var description: String { reason }
}

extension JSONParseError {
    static func expected(_ what: String, _ context: String, at offset: Int) -> JSONParseError {
        JSONParseError(reason: "Expected \(what) \(context) at byte \(offset).", offset: offset)
    }

    static func unexpectedEnd(_ context: String, at offset: Int) -> JSONParseError {
        JSONParseError(reason: "The text ended \(context) at byte \(offset).", offset: offset)
    }

    static func depthExceeded(limit: Int, at offset: Int) -> JSONParseError {
        JSONParseError(
            reason: "Arrays and objects nest deeper than \(limit) levels at byte \(offset).",
            offset: offset,
            isDepthExceeded: true
        )
    }

    static func invalid(_ what: String, at offset: Int) -> JSONParseError {
        JSONParseError(reason: "\(what) at byte \(offset).", offset: offset)
    }
}
