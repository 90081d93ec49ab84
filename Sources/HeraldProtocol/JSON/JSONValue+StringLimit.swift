extension JSONValue {
    /// The JSON Pointer of the first string — a value, or a member's name — longer than
    /// `maxBytes` bytes of UTF-8, or nil when none is. One pass over the value.
    package func pointerToString(longerThan maxBytes: Int) -> String? {
        var path: [String] = []
        guard findString(longerThan: maxBytes, path: &path) else { return nil }
        return path.map { "/" + JSONPointer.escape($0) }.joined()
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
