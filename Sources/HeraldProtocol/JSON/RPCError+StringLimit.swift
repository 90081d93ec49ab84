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
}
