import FoundationEssentials
import HeraldProtocol

/// A person as written on the command line: `Name <email>`, `+phone`, or a bare handle.
enum PersonArgument {
    /// `Ann Lee <ann@example.org>` → a handle and a display name; `+15551234` → a phone
    /// number; a value with `@` → an email address; anything else → a handle of unknown type.
    static func parse(_ text: String) -> JSONValue {
        let trimmed = text.trimmingBlanks()
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let name = trimmed[..<open].trimmingBlanks()
            let handle = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            var person: [String: JSONValue] = ["handle": handleObject(handle).json]
            if !name.isEmpty { person["displayName"] = name.json }
            return .members(person)
        }
        return ["handle": handleObject(trimmed).json]
    }

    static func handleObject(_ value: String) -> JSONValue {
        let type: String
        if value.contains("@") {
            type = "emailAddress"
        } else if value.hasPrefix("+") || (value.contains(where: \.isNumber) && value.allSatisfy({ "0123456789+-(). ".contains($0) })) {
            type = "phoneNumber"
        } else {
            type = "unknown"
        }
        return ["value": value.json, "type": type.json]
    }

    /// How heraldctl shows a person from a result: `Ann Lee <ann@example.org>`.
    static func describe(_ person: JSONValue?) -> String {
        guard let person, person.objectValue != nil else { return "-" }
        let handle = person["handle"]["value"]?.stringValue
        var name = person["displayName"]?.stringValue
        if name == nil, let components = person["nameComponents"] {
            let joined = [components["givenName"], components["familyName"]].compactMap { $0?.stringValue }.joined(separator: " ")
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
