import FoundationEssentials

/// A notification's identifier in its (uid, app)'s list: 1–255 characters, or a
/// lowercase UUID when the caller gives none — `UNNotificationRequest.identifier`.
enum NotificationIdentifier {
    static let maxCharacters = 255

    /// `given` when valid, a new lowercase UUID when nil.
    static func validated(_ given: String?, at path: MemberPath = ["identifier"]) throws(RuleError) -> String {
        guard let given else { return HeraldState.newNotificationIdentifier() }
        // Most identifiers are short: their UTF-8 length bounds their characters, and is O(1).
        guard !given.isEmpty, given.utf8.count <= maxCharacters || given.count <= maxCharacters else {
            throw .invalidParams("A notification identifier is 1–\(maxCharacters) characters; got \(given.count).", at: path)
        }
        return given
    }
}

extension HeraldState {
    /// A new random (version 4) UUID in lowercase, for a notification given no identifier.
    /// The server makes it before taking the state's lock. Its 128 random bits come from
    /// ``RandomPool`` (the kernel's, 256 identifiers to a `getrandom`), and it is written
    /// straight into the string's storage: no arrays on the way.
    package static func newNotificationIdentifier() -> String {
        var random = RandomPool.shared.next128()
        return withUnsafeBytes(of: &random) { random in
            String(unsafeUninitializedCapacity: 36) { text in
                let hex: StaticString = "0123456789abcdef"
                var at = 0
                for index in 0..<16 {
                    var byte = random[index]
                    if index == 6 { byte = (byte & 0x0f) | 0x40 }
                    if index == 8 { byte = (byte & 0x3f) | 0x80 }
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = hex.utf8Start[Int(byte >> 4)]
                    text[at + 1] = hex.utf8Start[Int(byte & 0x0f)]
                    at += 2
                }
                return at
            }
        }
    }
}
