import HeraldProtocol

/// A JSON-RPC 2.0 request object, checked against the specification.
struct RequestEnvelope {
    /// The id as sent (a string, a number or null); nil when absent, which makes a notification.
    var id: JSONValue?
    var method: String
    /// The params object (or the array Herald refuses); nil when absent.
    var params: JSONNode?

    /// Why an element could not be read as a request, and the id to answer with.
    struct Invalid: Error {
        var id: JSONValue
        var method: String?
        var error: RPCError
    }

    /// Reads `value` as a request object.
    ///
    /// An invalid request is always answered, even without an `id` — the specification's
    /// examples answer `{"jsonrpc": "2.0", "method": 1, "params": "bar"}` with an error —
    /// using its id when that id is itself valid, else null.
    static func read(_ object: JSONNode) -> Result<RequestEnvelope, Invalid> {
        guard object.kind == .object else {
            return .failure(
                Invalid(
                    id: .null,
                    error: RPCError(.invalidRequest, reason: "A request must be a JSON object, not \(object.kindDescription).")
                )
            )
        }

        var id: JSONValue?
        if let rawID = object[member: "id"] {
            switch rawID.kind {
            case .string, .number, .null:
                id = rawID.value
            default:
                return .failure(
                    Invalid(
                        id: .null,
                        error: RPCError(
                            .invalidRequest,
                            reason: "The id must be a string, a number or null, not \(rawID.kindDescription).",
                            pointer: "/id"
                        )
                    )
                )
            }
        }
        let answerID = id ?? .null
        let methodMember = object[member: "method"]
        let method = methodMember?.stringValue

        guard object[member: "jsonrpc"]?.stringEquals("2.0") == true else {
            return .failure(
                Invalid(
                    id: answerID,
                    method: method,
                    error: RPCError(.invalidRequest, reason: "A request must have \"jsonrpc\": \"2.0\".", pointer: "/jsonrpc")
                )
            )
        }
        guard let method else {
            let reason =
                if let methodMember {
                    "The method must be a string, not \(methodMember.kindDescription)."
                } else {
                    "A request must name its method in \"method\"."
                }
            return .failure(Invalid(id: answerID, error: RPCError(.invalidRequest, reason: reason, pointer: "/method")))
        }

        // An array is a valid request that Herald cannot serve (params are by name only):
        // the processor answers it with -32602 once it knows the method exists.
        let params = object[member: "params"]
        if let other = params, other.kind != .object, other.kind != .array {
            return .failure(
                Invalid(
                    id: answerID,
                    method: method,
                    error: RPCError(
                        .invalidRequest,
                        reason: "params must be an object, not \(other.kindDescription).",
                        pointer: "/params"
                    )
                )
            )
        }
        return .success(RequestEnvelope(id: id, method: method, params: params))
    }
}
