import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// No client's string reaches the journal (issue 49, finding 9): a marker word sent through
/// every member of every method `Protocol/openrpc.json` lists, through the envelope, and
/// inside every kind of framing error, is found in no field of heraldd's entries — save
/// the identifiers the audit trail is keyed by, which it records on purpose.
@Suite("Journal markers, end to end", .enabled(if: JournalReader.isAvailable, "needs a running systemd-journald"))
struct JournalMarkerEndToEndTests {
    /// The fields that record an identifier the client chose, a Focus's name, which is how
    /// the person refers to it, or the name of the host a synced Focus came from (issue 47
    /// asks for it in the journal; docs/operations.md, "The journal"): the marker may stand
    /// there, and in `MESSAGE` only as one of them.
    static let identifierFields: Set<String> = [
        "HERALD_APP", "HERALD_INTERACTION_ID", "HERALD_CONVERSATION_ID", "HERALD_NOTIFICATION_ID",
        "HERALD_NOTIFICATION_IDS", "HERALD_FOCUS", "HERALD_FOCUS_PREVIOUS", "HERALD_FOCUS_ORIGIN_HOST",
    ]

    @Test("A marker in every member of every method, the envelope and framing errors is in no journal field")
    func noMarkerInTheJournal() throws {
        let herald = try HeraldProcess(arguments: [
            "--log-target", "journal", "--max-request-bytes", "8192", "--read-timeout", "0.5",
        ])
        let journal = JournalReader(pid: herald.process.pid)
        let marker = "mk\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
        var requests = try RequestsCarryingMarker(marker: marker).lines
        requests += Self.envelopeLines(marker: marker)
        for line in requests {
            let client = try herald.connect()
            try client.send(line + "\n")
            _ = try client.readLine(timeout: 5)
        }
        let framingErrors = try Self.sendFramingErrors(marker: marker, to: herald)
        let expected = requests.count + framingErrors + 1  // the batch of two
        // Every result is one entry; the Focus's own entries come besides.
        var entries: [JSONObject] = []
        var results: [JSONObject] = []
        let deadline = Date().addingTimeInterval(120)
        repeat {
            entries = try journal.entries().entries
            results = entries.filter { $0.field("HERALD_OUTCOME") != nil }
            if results.count < expected { usleep(200_000) }
        } while results.count < expected && Date() < deadline
        #expect(results.count == expected, "every request and framing error is one entry")
        var leaks: [String] = []
        for entry in entries {
            let identifiers = Self.identifierFields.compactMap { entry.field($0) }
            for member in entry {
                let (name, text) = (member.key, Self.text(of: member.value))
                guard text.contains(marker), !Self.identifierFields.contains(name) else { continue }
                if name == "MESSAGE" {
                    let rest = identifiers.reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
                    if !rest.contains(marker) { continue }
                }
                leaks.append("\(name)=\(text) in \(entry.field("MESSAGE") ?? "?")")
            }
        }
        #expect(leaks.isEmpty, "\(leaks.count) fields carry the marker, such as \(leaks.prefix(20))")
        _ = herald
    }

    /// A field's value as text: a string, several values (an array), or bytes (an array of numbers).
    static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .array(let values):
            if values.allSatisfy({ $0.numberValue != nil }) {
                let bytes: [UInt8] = values.compactMap { value in value.numberValue?.intValue.map { UInt8(truncatingIfNeeded: $0) } }
                return String(decoding: bytes, as: UTF8.self)
            }
            return values.map(text(of:)).joined(separator: "\n")
        default: return value.compactText
        }
    }

    /// The marker as the envelope's `id`, `method`, `jsonrpc`, params and a batch's.
    static func envelopeLines(marker: String) -> [String] {
        [
            #"{"jsonrpc":"2.0","id":"\#(marker)","method":"stats"}"#,
            #"{"jsonrpc":"2.0","id":"a \"\#(marker)\" b","method":"stats"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"\#(marker)"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"do\"nate \#(marker)"}"#,
            #"{"jsonrpc":"\#(marker)","id":1,"method":"stats"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stats","params":"\#(marker)"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stats","params":["\#(marker)"]}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"stats","\#(marker)":1}"#,
            #"{"jsonrpc":"2.0","id":{"\#(marker)":1},"method":"stats"}"#,
            #"[{"jsonrpc":"2.0","id":"\#(marker)","method":"\#(marker)"},"\#(marker)"]"#,
        ]
    }

    /// Each kind of framing error with the marker inside, on a connection of its own;
    /// returns how many results they make.
    static func sendFramingErrors(marker: String, to herald: HeraldProcess) throws -> Int {
        let lines: [[UInt8]] = [
            Array("\(marker) is not JSON\n".utf8),
            Array("Ann Lee \(marker): see you at five\n".utf8),
            Array("\"\(marker)\"\n".utf8),
            Array(#"{"jsonrpc":"2.0","id":1,"method":"donate","params":{"app": \#(marker)}}"#.utf8) + [10],
            Array(#"{"jsonrpc":"2.0","id":1,"method":"stats","params":{"x":"\#(marker)"#.utf8) + [0xFF, 0xFE] + Array("\"}}\n".utf8),
            Array(String(repeating: "[", count: 100).utf8) + Array("\"\(marker)\"".utf8) + Array(String(repeating: "]", count: 100).utf8)
                + [10],
            Array(#"{"jsonrpc":"2.0","id":1,"method":"donate","params":{"app":"\#(marker)\#(String(repeating: "x", count: 9000))"}}"#.utf8)
                + [10],
        ]
        for line in lines {
            let client = try herald.connect()
            try client.send(line)
            _ = try client.readLine(timeout: 5)
        }
        // The input ends inside a text: a truncated request's start is the client's.
        let truncated = try herald.connect()
        try truncated.send(#"{"jsonrpc":"2.0","id":1,"method":"donate","params":{"body":"a fragment of a body \#(marker)"#)
        truncated.shutdownWrite()
        _ = try truncated.readLine(timeout: 5)
        // Part of a request, then nothing past --read-timeout.
        let stalled = try herald.connect()
        try stalled.send(#"{"jsonrpc":"2.0","id":1,"method":"\#(marker)"#)
        _ = try stalled.readLine(timeout: 10)
        return lines.count + 2
    }
}

/// Requests that each carry the marker in one member of one method's params, enumerated
/// from `Protocol/openrpc.json` so that a new method or member is covered by itself: for
/// each example of the method (or empty params), each member its schema reaches gets the
/// marker as its value, plain and with quotes around it, and each object gets a member
/// named after the marker.
struct RequestsCarryingMarker {
    let lines: [String]

    init(marker: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Protocol/openrpc.json"))
        let spec = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let schemas = ((spec["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
        let methods = try #require(spec["methods"] as? [[String: Any]])
        let values: [Any] = [marker, "Ann said \"\(marker)\" \\ and left"]
        var lines: [String] = []
        var id = 0
        for method in methods {
            let name = try #require(method["name"] as? String)
            let params = (method["params"] as? [[String: Any]]) ?? []
            var bases: [[String: Any]] = ((method["examples"] as? [[String: Any]]) ?? []).map { example in
                var base: [String: Any] = [:]
                for param in (example["params"] as? [[String: Any]]) ?? [] {
                    if let key = param["name"] as? String { base[key] = param["value"] }
                }
                return base
            }
            if bases.isEmpty { bases = [[:]] }
            var paths: [(path: [Step], isObject: Bool)] = [([], true)]
            for param in params {
                guard let key = param["name"] as? String else { continue }
                paths += Self.paths(of: param["schema"] ?? [:], schemas: schemas, depth: 0, seen: []).map {
                    ([.member(key)] + $0.path, $0.isObject)
                }
            }
            for base in bases {
                for (path, isObject) in paths {
                    var variants: [Any] = []
                    if !path.isEmpty {
                        variants += values.map { Self.setting($0, at: path[...], in: base) }
                    }
                    if isObject {
                        variants.append(Self.setting(marker, at: (path + [.member(marker)])[...], in: base))
                    }
                    for params in variants {
                        id += 1
                        let request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": name, "params": params]
                        let text = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
                        lines.append(String(decoding: text, as: UTF8.self))
                    }
                }
            }
        }
        self.lines = lines
    }

    enum Step: Hashable {
        case member(String)
        case index
    }

    /// Every member path a schema reaches, with whether it is (or may be) an object;
    /// `$ref`s are followed once per path, so recursive schemas end.
    static func paths(of schema: Any, schemas: [String: Any], depth: Int, seen: Set<String>) -> [(path: [Step], isObject: Bool)] {
        guard depth < 8, var node = schema as? [String: Any] else { return [] }
        var seen = seen
        if let reference = node["$ref"] as? String {
            let name = String(reference.split(separator: "/").last ?? "")
            guard !seen.contains(name), let resolved = schemas[name] as? [String: Any] else { return [] }
            seen.insert(name)
            node = resolved
        }
        var found: [(path: [Step], isObject: Bool)] = []
        for key in ["oneOf", "anyOf", "allOf"] {
            for alternative in (node[key] as? [Any]) ?? [] {
                found += paths(of: alternative, schemas: schemas, depth: depth + 1, seen: seen)
            }
        }
        if let properties = node["properties"] as? [String: Any] {
            for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
                let below = paths(of: property, schemas: schemas, depth: depth + 1, seen: seen)
                found.append(([.member(name)], below.contains { $0.path.isEmpty && $0.isObject } || isObject(property, schemas)))
                found += below.filter { !$0.path.isEmpty }.map { ([.member(name)] + $0.path, $0.isObject) }
            }
        }
        if let items = node["items"] {
            found.append(([.index], isObject(items, schemas)))
            found += paths(of: items, schemas: schemas, depth: depth + 1, seen: seen).filter { !$0.path.isEmpty }.map {
                ([.index] + $0.path, $0.isObject)
            }
        }
        if let additional = node["additionalProperties"] as? [String: Any] {
            found.append(([.member("k")], isObject(additional, schemas)))
        }
        return found
    }

    private static func isObject(_ schema: Any, _ schemas: [String: Any]) -> Bool {
        guard var node = schema as? [String: Any] else { return false }
        if let reference = node["$ref"] as? String,
            let resolved = schemas[String(reference.split(separator: "/").last ?? "")] as? [String: Any]
        {
            node = resolved
        }
        return node["properties"] != nil || (node["type"] as? String) == "object"
    }

    /// `root` with `value` at `path`, making the objects and arrays on the way.
    static func setting(_ value: Any, at path: ArraySlice<Step>, in root: Any?) -> Any {
        guard let step = path.first else { return value }
        switch step {
        case .member(let name):
            var object = root as? [String: Any] ?? [:]
            object[name] = setting(value, at: path.dropFirst(), in: object[name])
            return object
        case .index:
            var array = root as? [Any] ?? []
            if array.isEmpty {
                array.append(setting(value, at: path.dropFirst(), in: nil))
            } else {
                array[0] = setting(value, at: path.dropFirst(), in: array[0])
            }
            return array
        }
    }
}
