import FoundationEssentials

// The leaves of params, each read one way, with the sentences clients have always seen:
// "`/app` must be a string, not a number.", "`/uid` must be an integer from 0 to
// 4294967295; got -1.", "`/until` must be an RFC 3339 date-time such as
// 2026-11-22T14:02:00Z; got \"soon\"."

extension String: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        guard let string = value.stringValue else { throw value.mismatch(expected: "a string") }
        self = string
    }
}

extension Bool: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        guard let bool = value.boolValue else { throw value.mismatch(expected: "a boolean") }
        self = bool
    }
}

/// Any JSON value, as it is: the open-ended members (`userInfo`, `filterCriteria`, a call
/// record, an APNs payload) whose members are the client's, not Herald's.
extension JSONValue: ParamsReadable {
    package init(reading value: ParamsReader) {
        self = value.value
    }
}

extension Array: ParamsReadable where Element: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.array(of: Element.self)
    }
}

extension Double: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        guard let literal = value.numberLiteral else { throw value.mismatch(expected: "a number") }
        guard let double = Double(literal), double.isFinite else {
            throw value.error("is out of range for a Double; got \(literal).")
        }
        self = double
    }
}

extension Date: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        let string = value.stringValue
        if let string, let date = RFC3339.parse(string) {
            self = date
            return
        }
        let got = if let string { "got \"\(string)\"" } else { "not \(value.kindDescription)" }
        throw value.error("must be an RFC 3339 date-time such as 2026-11-22T14:02:00Z; \(got).")
    }
}

extension ParamsReader {
    /// An integer: any number literal whose value is integral and fits (`1.0` and `1e2`
    /// are fine), computed on the digits, never through `Double`.
    package func integer<Integer: FixedWidthInteger>(_ type: Integer.Type = Integer.self) throws(RPCError) -> Integer {
        guard let literal = numberLiteral else { throw mismatch(expected: "an integer") }
        if let integer = Integer(literal) {
            return integer
        }
        switch JSONIntegerLiteral(literal) {
        case .integral(let digits):
            if let integer = Integer(digits) { return integer }
        case .tooLarge:
            break
        case .fractional:
            throw error("must be an integer, not \(literal).")
        }
        throw error("must be an integer from \(Integer.min) to \(Integer.max); got \(literal).")
    }
}

extension Int: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.integer()
    }
}

extension UInt32: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.integer()
    }
}

extension JSONEnum {
    /// One of the raw values; otherwise "`/interaction/direction` must be one of incoming,
    /// outgoing; got \"sideways\"."
    package init(reading value: ParamsReader) throws(RPCError) {
        let rawValue = try String(reading: value)
        guard let read = Self(rawValue: rawValue) else { throw value.error(Self.notOneOf(rawValue)) }
        self = read
    }

    /// "must be one of a, b; got \"c\"."
    static func notOneOf(_ rawValue: String) -> String {
        let accepted = allCases.map(\.rawValue).joined(separator: ", ")
        return "must be one of \(accepted); got \(JSONValue.string(rawValue).compactText)."
    }
}
