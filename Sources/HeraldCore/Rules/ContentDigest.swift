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
        var text = text
        // Over the contiguous bytes: iterating `utf8` costs several times as much.
        var hash = text.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
        // Twelve bytes: written straight into the string's own (inline) storage.
        return String(unsafeUninitializedCapacity: length) { bytes in
            alphabet.withUnsafeBufferPointer { alphabet in
                bytes[0] = 0
                for index in 1..<length {
                    bytes[index] = alphabet[Int(hash & 63)]
                    hash >>= 6
                }
            }
            return length
        }
    }

    /// Whether `text` is already a digest (read back from a snapshot).
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.first == 0
    }

    /// `interaction` as the store keeps it: a message's content replaced by its digest.
    /// One stored already (the store checks again what a donation prepared) passes as it is.
    static func storing(_ interaction: consuming Interaction) -> Interaction {
        guard let content = interaction.intent.messageContent, !isDigest(content) else { return interaction }
        interaction.intent.replaceMessageContent(with: of(content))
        return interaction
    }
}

extension Intent {
    /// A message's content; nil for a call. Only the content is copied out of the message.
    fileprivate var messageContent: String? {
        guard case .sendMessage(let message) = self else { return nil }
        return message.content
    }

    fileprivate mutating func replaceMessageContent(with content: String) {
        guard case .sendMessage(var message) = self else { return }
        message.content = content
        self = .sendMessage(message)
    }
}
