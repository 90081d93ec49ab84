import HeraldProtocol

/// An error as the journal keeps it, built from what Herald knows — the error's code, the
/// member at fault as Herald's schema names it, the limit it broke — and never from
/// `data.reason`, which may quote the request back to its client (issue 49, finding 9).
///
/// A pointer keeps the member names of `Protocol/openrpc.json` and array positions; any
/// other token (an unknown member's name, a key of `userInfo`) is the client's text and
/// becomes `*`.
package struct JournalErrorReason: Sendable {
    /// Every member name the schema defines, the envelope's included.
    private let memberNames: Set<String>

    /// Reads the member names of an OpenRPC document: its methods' params and every
    /// schema's `properties` and `required`.
    package init(schema: JSONValue) {
        var names: Set<String> = ["jsonrpc", "id", "method", "params"]
        Self.collectNames(in: schema, into: &names)
        memberNames = names
    }

    /// `-32602 Invalid params at /interaction/direction` and the like: the code's standard
    /// message, where, and the limit when the error has one.
    package func reason(code: ErrorCode, pointer: String?, limit: Int?) -> String {
        var reason = code.standardMessage
        if let pointer, !pointer.isEmpty { reason += " at \(schemaPointer(pointer))" }
        if let limit { reason += ", limit \(limit)" }
        return reason
    }

    /// `pointer` with every token the schema does not name replaced by `*`.
    package func schemaPointer(_ pointer: String) -> String {
        guard pointer.hasPrefix("/") else { return pointer.isEmpty ? "" : "*" }
        var kept = ""
        for token in pointer.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            kept.append("/")
            let text = String(decoding: token, as: UTF8.self).replacing("~1", with: "/").replacing("~0", with: "~")
            if isPosition(token) || memberNames.contains(text) {
                kept.append(JSONPointer.escape(text))
            } else {
                kept.append("*")
            }
        }
        return kept
    }

    /// An array's position: at most 10 digits, the most a position of a request can have.
    private func isPosition(_ token: Substring.UTF8View.SubSequence) -> Bool {
        !token.isEmpty && token.count <= 10 && token.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func collectNames(in value: JSONValue, into names: inout Set<String>) {
        switch value {
        case .object(let object):
            for member in object {
                switch (member.key, member.value) {
                case ("properties", .object(let properties)):
                    for property in properties { names.insert(property.key) }
                case ("required", .array(let required)):
                    for case .string(let name) in required { names.insert(name) }
                case ("params", .array(let params)):
                    for case .object(let param) in params {
                        if case .string(let name)? = param["name"] { names.insert(name) }
                    }
                default:
                    break
                }
                collectNames(in: member.value, into: &names)
            }
        case .array(let array):
            for element in array { collectNames(in: element, into: &names) }
        default:
            break
        }
    }
}
