/// One field of a journal entry: a name such as `MESSAGE` or `HERALD_METHOD`, and its value.
///
/// journald accepts field names of uppercase ASCII letters, digits and underscores that do
/// not start with a digit; names starting with an underscore are trusted fields that only
/// journald itself may set. Values are arbitrary text, newlines included.
package struct JournalField: Sendable, Hashable {
    package let name: String
    package let value: String

    /// Creates a field, checking its name.
    package init(name: String, value: String) throws(JournalFieldNameError) {
        try Self.validate(name: name)
        self.name = name
        self.value = value
    }

    /// Creates a field whose name the caller has already checked.
    init(unchecked name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Longest field name journald accepts (`JOURNAL_FIELD_NAME_MAX` in systemd 252).
    package static let maximumNameLength = 64

    /// Throws unless `name` is a field name a client may send to journald.
    package static func validate(name: String) throws(JournalFieldNameError) {
        let utf8 = name.utf8
        guard let first = utf8.first else {
            throw JournalFieldNameError(name: name, reason: "a field name cannot be empty")
        }
        guard utf8.count <= maximumNameLength else {
            throw JournalFieldNameError(name: name, reason: "a field name has at most \(maximumNameLength) characters")
        }
        guard first != UInt8(ascii: "_") else {
            throw JournalFieldNameError(name: name, reason: "names starting with '_' are reserved for journald")
        }
        guard !isDigit(first) else {
            throw JournalFieldNameError(name: name, reason: "a field name cannot start with a digit")
        }
        // Over the contiguous bytes rather than `utf8.allSatisfy`, which was a tenth of the
        // journal writer's time: every result entry checks a dozen names.
        var contiguous = name
        let allowed = contiguous.withUTF8 { bytes in
            for byte in bytes where !(isUppercase(byte) || isDigit(byte) || byte == UInt8(ascii: "_")) {
                return false
            }
            return true
        }
        guard allowed else {
            throw JournalFieldNameError(name: name, reason: "use only uppercase ASCII letters, digits and '_'")
        }
    }

    /// Turns any text (a swift-log metadata key, say) into a valid field name with `prefix`:
    /// letters are uppercased, anything else that is not a digit becomes `_`.
    ///
    /// `sanitizedName("request-id", prefix: "HERALD_")` is `HERALD_REQUEST_ID`. The result
    /// is cut to ``maximumNameLength``; `prefix` must itself be a valid name start.
    package static func sanitizedName(_ text: String, prefix: String) -> String {
        var bytes = Array(prefix.utf8)
        bytes.reserveCapacity(prefix.utf8.count + text.utf8.count)
        for byte in text.utf8 {
            if isUppercase(byte) || isDigit(byte) {
                bytes.append(byte)
            } else if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") {
                bytes.append(byte - 32)
            } else {
                bytes.append(UInt8(ascii: "_"))
            }
        }
        return String(decoding: bytes.prefix(maximumNameLength), as: UTF8.self)
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

/// A journal field name that journald would reject, and why.
package struct JournalFieldNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rejected name.
    package let name: String
    /// What to fix, as a sentence.
    package let reason: String

    package var description: String {
        "invalid journal field name \"\(name)\": \(reason)"
    }
}
