import Foundation

/// A notification's identifier in its (uid, app)'s list: 1–255 characters, or a
/// lowercase UUID when the caller gives none — `UNNotificationRequest.identifier`.
enum NotificationIdentifier {
    static let maxCharacters = 255

    /// `given` when valid, a new lowercase UUID when nil.
    static func validated(_ given: String?, at path: MemberPath = ["identifier"]) throws(RuleError) -> String {
        guard let given else { return UUID().uuidString.lowercased() }
        guard !given.isEmpty, given.count <= maxCharacters else {
            throw .invalidParams("A notification identifier is 1–\(maxCharacters) characters; got \(given.count).", at: path)
        }
        return given
    }
}
