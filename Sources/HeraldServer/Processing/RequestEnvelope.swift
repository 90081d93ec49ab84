import HeraldProtocol

/// A JSON-RPC 2.0 request object, checked against the specification.
struct RequestEnvelope {
    /// The id as sent (a string, a number or null); nil when absent, which makes a notification.
    var id: JSONValue?
    var method: String
    /// The params object; nil when absent.
    var params: JSONValue?

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
    static func read(_ value: JSONValue) -> Result<RequestEnvelope, Invalid> {
        guard case .object(let object) = value else {
            return .failure(
                Invalid(
                    id: .null,
                    error: RPCError(.invalidRequest, reason: "A request must be a JSON object, not \(value.kindDescription).")
                )
            )
        }

        var id: JSONValue?
        if let rawID = object["id"] {
            switch rawID {
            case .string, .number, .null:
                id = rawID
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
        let method = object["method"]?.stringValue

        guard object["jsonrpc"] == .string("2.0") else {
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
                object["method"] == nil
                ? "A request must name its method in \"method\"."
                : "The method must be a string, not \(object["method"]!.kindDescription)."
            return .failure(Invalid(id: answerID, error: RPCError(.invalidRequest, reason: reason, pointer: "/method")))
        }

        let params = object["params"]
        switch params {
        case nil, .object, .array:
            // An array is a valid request that Herald cannot serve (params are by name
            // only): the processor answers it with -32602 once it knows the method exists.
            break
        case .some(let other):
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
