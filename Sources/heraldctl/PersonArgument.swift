import Foundation

/// A person as written on the command line: `Name <email>`, `+phone`, or a bare handle.
enum PersonArgument {
    /// `Ann Lee <ann@example.org>` → a handle and a display name; `+15551234` → a phone
    /// number; a value with `@` → an email address; anything else → a handle of unknown type.
    static func parse(_ text: String) -> [String: Any] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            let handle = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            var person: [String: Any] = ["handle": handleObject(handle)]
            if !name.isEmpty { person["displayName"] = name }
            return person
        }
        return ["handle": handleObject(trimmed)]
    }

    static func handleObject(_ value: String) -> [String: Any] {
        let type: String
        if value.contains("@") {
            type = "emailAddress"
        } else if value.hasPrefix("+") || (value.contains(where: \.isNumber) && value.allSatisfy({ "0123456789+-(). ".contains($0) })) {
            type = "phoneNumber"
        } else {
            type = "unknown"
        }
        return ["value": value, "type": type]
    }

    /// How heraldctl shows a person from a result: `Ann Lee <ann@example.org>`.
    static func describe(_ person: Any?) -> String {
        guard let person = person as? [String: Any] else { return "-" }
        let handle = (person["handle"] as? [String: Any])?["value"] as? String
        var name = person["displayName"] as? String
        if name == nil, let components = person["nameComponents"] as? [String: Any] {
            let joined = [components["givenName"], components["familyName"]].compactMap { $0 as? String }.joined(separator: " ")
            name = joined.isEmpty ? nil : joined
        }
        switch (name, handle) {
        case let (name?, handle?): return "\(name) <\(handle)>"
        case let (name?, nil): return name
        case let (nil, handle?): return handle
        default: return "-"
        }
    }
}
