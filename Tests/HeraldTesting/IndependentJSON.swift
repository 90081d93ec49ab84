import Foundation
import HeraldProtocol

/// Reads what the daemon sends with Foundation's `JSONSerialization`, not Herald's own
/// parser, so that a bug shared by Herald's parser and writer cannot pass a test.
///
/// Numbers keep their value, not their spelling: `1.0` reads as `1`. A test about a
/// number's exact spelling (an id echoed as written) reads the raw line instead.
package enum IndependentJSON {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Parses one JSON text.
    package static func parse(_ text: String) throws -> JSONValue {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return try value(object)
    }

    private static func value(_ object: Any) throws -> JSONValue {
        switch object {
        case is NSNull:
            return .null
        case let string as String:
            return .string(string)
        case let number as NSNumber:
            return number.isBoolean ? .bool(number.boolValue) : .number(literal(number))
        case let array as [Any]:
            return .array(try array.map(value))
        case let dictionary as [String: Any]:
            var members = JSONObject()
            for (key, member) in dictionary {
                members[key] = try value(member)
            }
            return .object(members)
        default:
            throw Failure(description: "JSONSerialization returned a \(type(of: object))")
        }
    }

    private static func literal(_ number: NSNumber) -> JSONNumber {
        switch String(cString: number.objCType) {
        case "d", "f": JSONNumber(number.doubleValue)
        default: JSONNumber(literal: number.stringValue)
        }
    }
}

extension NSNumber {
    /// Whether JSONSerialization read this from `true` or `false` (a `char`-typed number).
    fileprivate var isBoolean: Bool {
        String(cString: objCType) == "c"
    }
}
