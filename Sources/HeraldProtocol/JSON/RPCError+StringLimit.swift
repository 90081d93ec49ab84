extension RPCError {
    /// -32602 for a string of `params` longer than `maxBytes` (`--max-string-bytes`), at
    /// the member that holds it; nil when every string fits. An image's `data` is held to
    /// its own bound instead, ``imageDataBytes``: the base64 of 256 KiB, which an ordinary
    /// avatar needs and `--max-string-bytes` would refuse.
    package static func stringTooLong(in params: JSONNode, maxBytes: Int) -> RPCError? {
        guard let found = params.pointerToString(longerThan: maxBytes, ownLimits: ["data": imageDataBytes]) else { return nil }
        let reason =
            found.member == "data"
            ? "An image's data is at most \(imageDataBytes) bytes of base64 (\(NotificationImage.maximumDataSize) bytes decoded); give a larger image as a file: URL."
            : "A string of params is longer than \(maxBytes) bytes of UTF-8, the most Herald takes (--max-string-bytes)."
        return RPCError(.invalidParams, reason: reason, pointer: found.pointer, extraData: ["limit": .number(JSONNumber(found.limit))])
    }

    /// The most bytes an image's base64 `data` takes: 256 KiB decoded, padded base64.
    package static let imageDataBytes = (NotificationImage.maximumDataSize + 2) / 3 * 4
}
