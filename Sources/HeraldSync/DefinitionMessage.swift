import FoundationEssentials
import HeraldProtocol

/// What travels on `<prefix>/<account>/focuses/<name>`: one of the person's Focus
/// definitions as `get-focus` lists it (people, apps, silence lists, schedules), or null
/// once deleted (a tombstone, kept retained so that a host that was away deletes it too),
/// with the host that changed it and when (Protocol/sync-focus-definition.schema.json).
///
/// herald-sync checks the envelope; heraldd checks the definition itself when it is
/// applied with `define-focus`, and a definition it refuses is logged and not taken.
package struct DefinitionMessage: SyncMessage, Equatable, Sendable {
    package var name: String
    /// The definition, a JSON object as `get-focus` lists it; nil: deleted.
    package var focus: JSONObject?
    package var account: String
    package var host: String
    package var time: HybridTimestamp

    /// The longest payload read: a definition with many people, apps and schedules.
    package static let maximumBytes = 65536

    package init(name: String, focus: JSONObject?, account: String, host: String, time: HybridTimestamp) {
        self.name = name
        self.focus = focus
        self.account = account
        self.host = host
        self.time = time
    }

    /// The topic's last level for a Focus named `name`: the name with `%`, `/`, `+` and `#`
    /// written as `%25`, `%2F`, `%2B` and `%23`, so that any name is one level.
    package static func topicLevel(_ name: String) -> String {
        var level = ""
        for character in name {
            switch character {
            case "%": level += "%25"
            case "/": level += "%2F"
            case "+": level += "%2B"
            case "#": level += "%23"
            default: level.append(character)
            }
        }
        return level
    }

    /// Reads a payload, refusing anything but exactly the schema's members and types.
    package static func read(_ payload: [UInt8]) throws(FocusMessage.Refusal) -> DefinitionMessage {
        guard payload.count <= maximumBytes else {
            throw FocusMessage.Refusal(description: "the payload is \(payload.count) bytes, more than \(maximumBytes)")
        }
        let value: JSONValue
        do { value = try JSONParser.parse(payload, maxDepth: 10) } catch {
            throw FocusMessage.Refusal(description: "the payload is not JSON: \(error)")
        }
        guard let object = value.objectValue else { throw FocusMessage.Refusal(description: "the payload is not a JSON object") }
        let known: Set<String> = ["name", "focus", "account", "host", "hlc"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw FocusMessage.Refusal(description: "/\(unknown) is not a known member")
        }
        let envelope = try FocusMessage.Envelope(object)
        guard case .string(let name) = object["name"], !name.isEmpty, name.utf8.count <= 255 else {
            throw FocusMessage.Refusal(description: "/name must be a string of 1 to 255 bytes")
        }
        var focus: JSONObject?
        switch object["focus"] {
        case .null: focus = nil
        case .object(let definition):
            guard definition["name"]?.stringValue == name else {
                throw FocusMessage.Refusal(description: "/focus/name must be /name")
            }
            guard definition["until"] == nil else {
                throw FocusMessage.Refusal(description: "/focus/until is not part of a definition")
            }
            focus = definition
        default: throw FocusMessage.Refusal(description: "/focus must be a Focus definition or null")
        }
        return DefinitionMessage(name: name, focus: focus, account: envelope.account, host: envelope.host, time: envelope.time)
    }

    /// The payload, compact JSON.
    package func encoded() -> [UInt8] {
        let object: JSONObject = [
            "name": .string(name),
            "focus": focus.map { .object($0) } ?? .null,
            "account": .string(account),
            "host": .string(host),
            "hlc": time.json,
        ]
        return Self.payload(object)
    }
}
