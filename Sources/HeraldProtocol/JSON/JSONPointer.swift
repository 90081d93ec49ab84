/// An RFC 6901 JSON Pointer such as `/interaction/intent/recipients/1`.
///
/// Errors name the member at fault with one (`data.pointer`). Tokens are kept unescaped;
/// `description` escapes `~` as `~0` and `/` as `~1`.
package struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped, from the root down.
    package private(set) var tokens: [String]

    /// The pointer to the whole document.
    package init() {
        self.tokens = []
    }

    package init(tokens: [String]) {
        self.tokens = tokens
    }

    /// The pointer a `Codable` coding path stands for: keys by their string value, the
    /// positions of unkeyed containers by their index.
    package init(codingPath: [any CodingKey]) {
        self.tokens = codingPath.map { key in
            if key is JSONIndexKey, let index = key.intValue {
                return String(index)
            }
            return key.stringValue
        }
    }

    /// This pointer followed by an object member's name.
    package func appending(_ key: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(key)
        return copy
    }

    /// This pointer followed by an array position.
    package func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    package var isRoot: Bool { tokens.isEmpty }

    /// The RFC 6901 text: "" for the root, otherwise `/` before each escaped token.
    package var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            text.append(JSONPointer.escape(token))
        }
        return text
    }

    /// Escapes one reference token: `~` → `~0`, then `/` → `~1`.
    package static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return token
        }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}

extension JSONPointer {
    /// How an error sentence names the member at `pointer` (a full pointer text, prefix
    /// included): the pointer in backquotes, or "params" for the root.
    static func subject(_ pointer: String) -> String {
        pointer.isEmpty ? "params" : "`\(pointer)`"
    }
}
