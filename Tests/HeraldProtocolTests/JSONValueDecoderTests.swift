import Foundation
import Testing

@testable import HeraldProtocol

private enum Direction: String, JSONEnum {
    case incoming, outgoing, unspecified
}

private enum HandleType: String, JSONEnum {
    case phoneNumber, emailAddress
}

private struct Handle: Codable, Equatable {
    var type: HandleType
    var value: String
}

private struct Recipient: Codable, Equatable {
    var handle: Handle
}

private struct Intent: Codable, Equatable {
    var recipients: [Recipient]
}

private struct Interaction: Codable, Equatable {
    var direction: Direction
    var intent: Intent
    var identifier: String?
}

private struct Params: Codable, Equatable {
    var app: String
    var interaction: Interaction
    var count: Int8?
    var at: Date?
    var userInfo: JSONValue?
    var score: Double?
}

/// Rejects an empty name with its own `dataCorrupted`, as wire types' validations do.
private struct NonEmptyName: Decodable {
    var name: String
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        if name.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "The name must not be empty.")
        }
    }
    enum CodingKeys: CodingKey { case name }
}

@Suite("JSONValueDecoder")
struct JSONValueDecoderTests {
    private let decoder = JSONValueDecoder()

    private func params(_ text: String) throws -> JSONValue {
        try JSONParser.parse(text)
    }

    private func failure<T: Decodable>(_ type: T.Type, _ text: String, prefix: String = "") throws -> RPCError? {
        let value = try params(text)
        return #expect(throws: RPCError.self) { try decoder.decode(T.self, from: value, pointerPrefix: prefix) }
    }

    private let valid = #"""
        {"app": "chat", "interaction": {"direction": "incoming", "intent": {"recipients": [
          {"handle": {"type": "phoneNumber", "value": "+1"}}, {"handle": {"type": "emailAddress", "value": "a@b"}}]}},
         "count": 1e1, "at": "2026-11-22T14:02:00Z", "userInfo": {"z": [1.50], "a": null}, "score": 1}
        """#

    @Test("decodes nested types, optionals, dates and free-form members")
    func decodes() throws {
        let decoded = try decoder.decode(Params.self, from: params(valid))
        #expect(decoded.app == "chat")
        #expect(decoded.interaction.direction == .incoming)
        #expect(decoded.interaction.intent.recipients.map(\.handle.type) == [.phoneNumber, .emailAddress])
        #expect(decoded.interaction.identifier == nil)
        #expect(decoded.count == 10)
        #expect(decoded.at == Date(timeIntervalSince1970: 1_795_356_120))
        #expect(decoded.userInfo?.compactText == #"{"z":[1.50],"a":null}"#)
        #expect(decoded.score == 1)
    }

    @Test("null for an optional member decodes as nil")
    func nullOptional() throws {
        let decoded = try decoder.decode(
            Params.self,
            from: params(#"{"app":"a","interaction":{"direction":"outgoing","intent":{"recipients":[]},"identifier":null},"count":null}"#)
        )
        #expect(decoded.interaction.identifier == nil)
        #expect(decoded.count == nil)
    }

    @Test("a missing member points at the member")
    func missing() throws {
        let error = try failure(Params.self, #"{"app":"a","interaction":{"intent":{"recipients":[]}}}"#)
        #expect(error?.code == .invalidParams)
        #expect(error?.pointer == "/interaction/direction")
        #expect(error?.reason == "`/interaction/direction` is required.")
    }

    @Test("a member of the wrong type names both types")
    func wrongType() throws {
        let error = try failure(Params.self, #"{"app": 5, "interaction": {}}"#)
        #expect(error?.pointer == "/app")
        #expect(error?.reason == "`/app` must be a string, not a number.")
        let null = try failure(Params.self, #"{"app": null, "interaction": {}}"#)
        #expect(null?.reason == "`/app` must be a string, not null.")
        let root = try failure(Params.self, "[1]")
        #expect(root?.pointer == "")
        #expect(root?.reason == "params must be an object, not an array.")
    }

    @Test("an unknown enum value lists the accepted ones")
    func enumValue() throws {
        let error = try failure(
            Params.self,
            #"{"app":"a","interaction":{"direction":"sideways","intent":{"recipients":[]}}}"#,
            prefix: "/params"
        )
        #expect(error?.pointer == "/params/interaction/direction")
        #expect(error?.reason == #"`/params/interaction/direction` must be one of incoming, outgoing, unspecified; got "sideways"."#)
    }

    @Test("an error inside an array element points through the index")
    func nestedArrayElement() throws {
        let text = valid.replacingOccurrences(of: #""value": "a@b""#, with: #""value": 7"#)
        let error = try failure(Params.self, text)
        #expect(error?.pointer == "/interaction/intent/recipients/1/handle/value")
        #expect(error?.reason == "`/interaction/intent/recipients/1/handle/value` must be a string, not a number.")
    }

    @Test(
        "integers must be integral and fit",
        arguments: [
            ("1.0", Int8(1)), ("1e2", 100), ("-0", 0), ("127", 127), ("-1.28e2", -128), ("12.70e1", 127),
        ])
    func integers(_ literal: String, _ expected: Int8) throws {
        #expect(try decoder.decode(Int8.self, from: .number(JSONNumber(literal: literal))) == expected)
    }

    @Test("integers out of range or fractional are rejected with a reason")
    func integerErrors() throws {
        let range = try failure(Params.self, #"{"app":"a","interaction":{"direction":"incoming","intent":{"recipients":[]}},"count":300}"#)
        #expect(range?.pointer == "/count")
        #expect(range?.reason == "`/count` must be an integer from -128 to 127; got 300.")
        let fraction = try failure(
            Params.self, #"{"app":"a","interaction":{"direction":"incoming","intent":{"recipients":[]}},"count":1.5}"#)
        #expect(fraction?.reason == "`/count` must be an integer, not 1.5.")
        #expect(throws: RPCError.self) { try decoder.decode(Int.self, from: .number(JSONNumber(literal: "1e400"))) }
        #expect(throws: RPCError.self) { try decoder.decode(UInt.self, from: .number(JSONNumber(literal: "-1"))) }
        #expect(try decoder.decode(Int64.self, from: .number(JSONNumber(literal: "9007199254740993"))) == 9_007_199_254_740_993)
    }

    @Test("doubles come from any finite number")
    func doubles() throws {
        #expect(try decoder.decode(Double.self, from: .number(JSONNumber(literal: "-1.5e3"))) == -1500)
        #expect(throws: RPCError.self) { try decoder.decode(Double.self, from: .number(JSONNumber(literal: "1e400"))) }
    }

    @Test("dates must be RFC 3339")
    func dates() throws {
        let error = try failure(
            Params.self, #"{"app":"a","interaction":{"direction":"incoming","intent":{"recipients":[]}},"at":"yesterday"}"#)
        #expect(error?.pointer == "/at")
        #expect(error?.reason == #"`/at` must be an RFC 3339 date-time such as 2026-11-22T14:02:00Z; got "yesterday"."#)
    }

    @Test("a type's own dataCorrupted error keeps its sentence and its member")
    func dataCorrupted() throws {
        let error = try failure(NonEmptyName.self, #"{"name": ""}"#, prefix: "/person")
        #expect(error?.pointer == "/person/name")
        #expect(error?.reason == "The name must not be empty.")
    }

    @Test("pointers escape '~' and '/' in member names")
    func escapedPointer() throws {
        let error = try failure([String: Int].self, #"{"a/b~c": "x"}"#)
        #expect(error?.pointer == "/a~1b~0c")
    }

    @Test("JSONValue decodes untouched")
    func jsonValue() throws {
        let value = try params(#"{"b":[1.50,{"x":null}],"a":"s"}"#)
        #expect(try decoder.decode(JSONValue.self, from: value).compactText == value.compactText)
    }

    @Test("unkeyed, nested and super containers work")
    func containers() throws {
        struct Pair: Decodable, Equatable {
            var first: Int
            var rest: [String]
            var parent: String
            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                first = try list.decode(Int.self)
                var nested = try list.nestedUnkeyedContainer()
                rest = []
                while !nested.isAtEnd {
                    rest.append(try nested.decode(String.self))
                }
                let object = try list.nestedContainer(keyedBy: JSONMemberKey.self)
                parent = try object.superDecoder(forKey: JSONMemberKey("p")).singleValueContainer().decode(String.self)
                #expect(try list.decodeNil())
                #expect(list.isAtEnd)
            }
        }
        let pair = try decoder.decode(Pair.self, from: params(#"[1, ["a", "b"], {"p": "q"}, null]"#))
        #expect(pair.first == 1 && pair.rest == ["a", "b"] && pair.parent == "q")
        let short = try failure(Pair.self, "[1]")
        #expect(short?.pointer == "/1")
    }
}
