extension JSONValue {
    /// The JSON Pointer of the first string — a value, or a member's name — longer than
    /// `maxBytes` bytes of UTF-8, or nil when none is.
    ///
    /// Every request's params pass through here: the common answer, none, comes from a
    /// pass that allocates nothing; only a string too long pays for its path.
    package func pointerToString(longerThan maxBytes: Int) -> String? {
        guard hasString(longerThan: maxBytes) else { return nil }
        var path: [String] = []
        guard findString(longerThan: maxBytes, path: &path) else { return nil }
        return path.map { "/" + JSONPointer.escape($0) }.joined()
    }

    private func hasString(longerThan maxBytes: Int) -> Bool {
        switch self {
        case .string(let string):
            return string.utf8.count > maxBytes
        case .array(let elements):
            return elements.contains { $0.hasString(longerThan: maxBytes) }
        case .object(let object):
            return object.members.contains { member in
                member.key.utf8.count > maxBytes || member.value.hasString(longerThan: maxBytes)
            }
        case .null, .bool, .number:
            return false
        }
    }

    private func findString(longerThan maxBytes: Int, path: inout [String]) -> Bool {
        switch self {
        case .string(let string):
            return string.utf8.count > maxBytes
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                path.append(String(index))
                if element.findString(longerThan: maxBytes, path: &path) { return true }
                path.removeLast()
            }
            return false
        case .object(let object):
            for member in object.members {
                // A name too long is pointed at by its object: the pointer stays short.
                if member.key.utf8.count > maxBytes { return true }
                path.append(member.key)
                if member.value.findString(longerThan: maxBytes, path: &path) { return true }
                path.removeLast()
            }
            return false
        case .null, .bool, .number:
            return false
        }
    }
}

extension RPCError {
    /// -32602 for a string of `params` longer than `maxBytes` (`--max-string-bytes`), at
    /// the member that holds it; nil when every string fits.
    package static func stringTooLong(in params: JSONValue, maxBytes: Int) -> RPCError? {
        guard let pointer = params.pointerToString(longerThan: maxBytes) else { return nil }
        return RPCError(
            .invalidParams,
            reason: "A string of params is longer than \(maxBytes) bytes of UTF-8, the most Herald takes (--max-string-bytes).",
            pointer: pointer,
            extraData: ["limit": .number(JSONNumber(maxBytes))]
        )
    }
}
