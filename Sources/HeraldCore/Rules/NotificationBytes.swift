import HeraldProtocol

/// What a notification in the list weighs, for each uid's `--max-notification-bytes`: the
/// UTF-8 of every string it holds (its identifier, content, people, images, `userInfo`
/// and the other JSON members) plus ``fieldBytes`` for each member and number, and
/// ``entryBytes`` for the entry itself. Close to its size as `list-notifications` writes
/// it, computed from the values alone, so a restored list weighs the same.
enum NotificationBytes {
    /// An entry's own bookkeeping: its key, dates, delivery decision and place in the order.
    static let entryBytes = 256
    /// A member's name and punctuation, or a number, a bool or null.
    static let fieldBytes = 8

    static func of(identifier: String, content: NotificationContent) -> Int {
        var bytes = entryBytes + identifier.utf8.count
        for text in [content.title, content.subtitle, content.body, content.threadIdentifier, content.categoryIdentifier, content.targetContentIdentifier] {
            bytes += of(text)
        }
        for value in [content.filterCriteria, content.sound, content.attachments, content.userInfo] {
            if let value { bytes += of(value) }
        }
        if let communication = content.communication {
            bytes += fieldBytes * 4 + of(communication.conversationIdentifier) + of(communication.avatar)
            if let sender = communication.sender { bytes += of(sender) }
            for recipient in communication.recipients { bytes += of(recipient) }
        }
        return bytes
    }

    private static func of(_ text: String?) -> Int {
        text.map { fieldBytes + $0.utf8.count } ?? 0
    }

    private static func of(_ image: NotificationImage?) -> Int {
        guard let image else { return 0 }
        return fieldBytes + of(image.url) + of(image.data) + of(image.mimeType)
    }

    private static func of(_ person: Person) -> Int {
        var bytes = fieldBytes * 3 + of(person.displayName) + of(person.image) + of(person.contactIdentifier) + of(person.customIdentifier)
        if let handle = person.handle { bytes += of(handle.value) + fieldBytes }
        for alias in person.aliases ?? [] { bytes += of(alias.value) + fieldBytes }
        if let name = person.nameComponents { bytes += of(name.givenName) + of(name.familyName) + of(name.nickname) }
        return bytes
    }

    private static func of(_ value: JSONValue) -> Int {
        switch value {
        case .null, .bool: return fieldBytes
        case .number(let number): return fieldBytes + number.literal.utf8.count
        case .string(let string): return fieldBytes + string.utf8.count
        case .array(let elements): return elements.reduce(fieldBytes) { $0 + of($1) }
        case .object(let object): return object.reduce(fieldBytes) { $0 + fieldBytes + $1.key.utf8.count + of($1.value) }
        }
    }
}
