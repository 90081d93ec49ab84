import HeraldProtocol

/// The name Herald shows for a person: the notification's title, the names in a group's
/// subtitle.
///
/// `displayName`, else the given and family names joined by a space, else the
/// `nickname`, else the handle's value. Empty strings count as absent.
enum DisplayName {
    static func of(_ person: Person) -> String {
        if let name = person.displayName, !name.isEmpty {
            return name
        }
        if let components = person.nameComponents {
            let joined = [components.givenName, components.familyName]
                .compactMap { $0 }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
            if !joined.isEmpty {
                return joined
            }
            if let nickname = components.nickname, !nickname.isEmpty {
                return nickname
            }
        }
        return person.handle?.value ?? ""
    }
}
