import HeraldProtocol

/// What Herald keeps of a donated message's text: a digest, never the text.
///
/// No rule or method reads a donated message's `content` (a notification's text comes
/// with `update-content`, which Herald answers and forgets), so the store keeps only
/// what the identical-retry check needs to tell a retry with other text apart: the
/// 64-bit FNV-1a digest of the text's UTF-8, in the message's `content` slot, as a NUL
/// (which no text a client means to show starts with) and 11 characters of base64url.
/// Twelve bytes fit in a Swift string without an allocation; snapshots hold digests,
/// not text.
enum ContentDigest {
    private static let length = 12
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The digest of `text`, as the store keeps it.
    static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        var bytes: [UInt8] = [0]
        for _ in 1..<length {
            bytes.append(alphabet[Int(hash & 63)])
            hash >>= 6
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` is already a digest (read back from a snapshot).
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.first == 0
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
