import HeraldProtocol

/// The keys that say two people are the same: a Focus's allowed person and a sender, two
/// calls from one caller, a suggestion's person across donations.
///
/// Two people match when they share any key: a handle's value or an alias's (emails
/// compared case-insensitively, phone numbers by their digits alone), the
/// `contactIdentifier`, or the `customIdentifier`. Display names never match people:
/// two Anns are not one person.
enum PersonIdentity {
    /// Every key of `person`, without duplicates, most specific first.
    static func keys(of person: Person) -> [String] {
        var keys: [String] = []
        if let contact = person.contactIdentifier, !contact.isEmpty {
            keys.append("contact:" + contact)
        }
        if let handle = person.handle, let key = key(of: handle) {
            keys.append(key)
        }
        for alias in person.aliases ?? [] {
            if let key = key(of: alias), !keys.contains(key) {
                keys.append(key)
            }
        }
        if let custom = person.customIdentifier, !custom.isEmpty {
            keys.append("custom:" + custom)
        }
        return keys
    }

    /// The first of ``keys(of:)``, the most specific, without working out the others.
    static func firstKey(of person: Person) -> String? {
        if let contact = person.contactIdentifier, !contact.isEmpty {
            return "contact:" + contact
        }
        if let handle = person.handle, let key = key(of: handle) {
            return key
        }
        for alias in person.aliases ?? [] {
            if let key = key(of: alias) { return key }
        }
        if let custom = person.customIdentifier, !custom.isEmpty {
            return "custom:" + custom
        }
        return nil
    }

    /// Whether `person` shares a key with any of `keys`.
    static func matches(_ person: Person, anyOf keys: Set<String>) -> Bool {
        guard !keys.isEmpty else { return false }
        return Self.keys(of: person).contains { keys.contains($0) }
    }

    /// A handle's key. An `unknown` handle that looks like an email address or a phone
    /// number is compared as one.
    static func key(of handle: PersonHandle) -> String? {
        let value = handle.value
        guard !value.isEmpty else { return nil }
        switch handle.type ?? .unknown {
        case .emailAddress:
            return "email:" + value.lowercased()
        case .phoneNumber:
            let digits = phoneDigits(value)
            return digits.isEmpty ? "handle:" + value : "phone:" + digits
        case .unknown:
            if value.contains("@" as Character) {
                return "email:" + value.lowercased()
            }
            if looksLikePhoneNumber(value) {
                return "phone:" + phoneDigits(value)
            }
            return "handle:" + value
        }
    }

    static func phoneDigits(_ value: String) -> String {
        String(value.filter { $0.isASCII && $0.isNumber })
    }

    /// Digits with at most the punctuation of a written phone number, and three digits
    /// or more.
    private static func looksLikePhoneNumber(_ value: String) -> Bool {
        var digits = 0
        for scalar in value.unicodeScalars {
            switch scalar {
            case "0"..."9": digits += 1
            case "+", "-", "(", ")", " ", ".": continue
            default: return false
            }
        }
        return digits >= 3
    }
}
