import Foundation

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
    /// The server makes it before taking the state's lock, so that the random bytes are
    /// read outside it.
    public static func newNotificationIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = withUnsafeBytes(of: (generator.next() as UInt64, generator.next() as UInt64)) { Array($0) }
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
