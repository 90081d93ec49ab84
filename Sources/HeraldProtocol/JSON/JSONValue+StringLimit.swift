extension JSONValue {
    /// The JSON Pointer of the first string — a value, or a member's name — longer than
    /// `maxBytes` bytes of UTF-8, or nil when none is (a value built in memory; a request's
    /// params are walked on their tape, ``JSONNode/pointerToString(longerThan:)``).
    package func pointerToString(longerThan maxBytes: Int) -> String? {
        JSONTape(self).root.pointerToString(longerThan: maxBytes)
    }
}

extension RPCError {
    /// -32602 for a string of `params` longer than `maxBytes` (`--max-string-bytes`), at
    /// the member that holds it; nil when every string fits.
    package static func stringTooLong(in params: JSONNode, maxBytes: Int) -> RPCError? {
        guard let pointer = params.pointerToString(longerThan: maxBytes) else { return nil }
        return RPCError(
            .invalidParams,
            reason: "A string of params is longer than \(maxBytes) bytes of UTF-8, the most Herald takes (--max-string-bytes).",
            pointer: pointer,
            extraData: ["limit": .number(JSONNumber(maxBytes))]
        )
    }

    package static func stringTooLong(in params: JSONValue, maxBytes: Int) -> RPCError? {
        stringTooLong(in: JSONTape(params).root, maxBytes: maxBytes)
    }
}
