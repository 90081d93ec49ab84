/// An error that a JSON-RPC response carries.
///
/// Every error says what to fix: `reason` is a sentence for a person, and `pointer`
/// (a JSON Pointer into the request's `params`, such as `/interaction/intent/sender`)
/// names the member at fault where there is one. Both travel in the error object's `data`.
package struct RPCError: Error, Sendable, Hashable {
    package var code: ErrorCode
    package var message: String
    /// A sentence for a person: what is wrong and what to do about it.
    package var reason: String
    /// A JSON Pointer to the member of `params` at fault, or nil when no member is.
    package var pointer: String?
    /// Further members of `data`, such as the limit that was exceeded.
    package var extraData: JSONObject
    /// A refusal a person meets in ordinary use (an administrator's method asked for by the
    /// person), which the journal keeps as a notice rather than a warning; not on the wire.
    package var isRoutineRefusal = false

    package init(
        _ code: ErrorCode,
        reason: String,
        pointer: String? = nil,
        message: String? = nil,
        extraData: JSONObject = JSONObject()
    ) {
        self.code = code
        self.message = message ?? code.standardMessage
        self.reason = reason
        self.pointer = pointer
        self.extraData = extraData
    }

    /// The error object as it goes on the wire: `{code, message, data: {reason, pointer?, ...}}`.
    package var jsonValue: JSONValue {
        var data = JSONObject()
        data["reason"] = .string(reason)
        if let pointer {
            data["pointer"] = .string(pointer)
        }
        for member in extraData {
            data[member.key] = member.value
        }
        return .object(
            JSONObject([
                .init(key: "code", value: .number(JSONNumber(code.rawValue))),
                .init(key: "message", value: .string(message)),
                .init(key: "data", value: .object(data)),
            ])
        )
    }
}

extension RPCError {
    package static func invalidParams(_ reason: String, at pointer: String) -> RPCError {
        RPCError(.invalidParams, reason: reason, pointer: pointer)
    }
}
