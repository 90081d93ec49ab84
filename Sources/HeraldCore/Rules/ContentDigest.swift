import HeraldProtocol

/// What Herald keeps of a donated message's text: a digest, never the text.
///
/// No rule or method reads a donated message's `content` (a notification's text comes
/// with `update-content`, which Herald answers and forgets), so the store keeps only
/// what the identical-retry check needs to tell a retry with other text apart: the
/// 64-bit FNV-1a digest of the text's UTF-8, in the message's `content` slot, marked by
/// a leading NUL (which no text a client means to show starts with). Snapshots therefore
/// hold digests, not text.
enum ContentDigest {
    private static let marker = "\u{0}fnv1a64:"

    /// The digest of `text`, as the store keeps it.
    static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return marker + String(repeating: "0", count: 16 - hex.utf8.count) + hex
    }

    /// Whether `text` is already a digest (read back from a snapshot).
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == marker.utf8.count + 16 && text.hasPrefix(marker)
    }

    /// `interaction` as the store keeps it: a message's content replaced by its digest.
    static func storing(_ interaction: Interaction) -> Interaction {
        guard case .sendMessage(var message) = interaction.intent, let content = message.content,
            !isDigest(content)
        else { return interaction }
        var stored = interaction
        message.content = of(content)
        stored.intent = .sendMessage(message)
        return stored
    }
}
