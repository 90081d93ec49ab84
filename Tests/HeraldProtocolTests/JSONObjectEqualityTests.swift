import Testing

@testable import HeraldProtocol

@Suite("JSONObject equality")
struct JSONObjectEqualityTests {
    private func object(_ text: String) throws -> JSONValue {
        try JSONParser.parse(text)
    }

    @Test("member order does not matter, values do")
    func order() throws {
        #expect(try object(#"{"a":1,"b":[2,{"c":3}]}"#) == object(#"{"b":[2,{"c":3}],"a":1}"#))
        #expect(try object(#"{"a":1,"b":2}"#) != object(#"{"a":1,"b":3}"#))
        #expect(try object(#"{"a":1,"b":2}"#) != object(#"{"a":1,"c":2}"#))
        #expect(try object(#"{"a":1}"#) != object(#"{"a":1,"b":2}"#))
    }

    @Test("an object with duplicate names equals itself; the last member of a name counts")
    func duplicates() throws {
        let twice = try object(#"{"a":1,"a":2}"#)
        #expect(twice == twice)
        #expect(try twice == object(#"{"a":1,"a":2}"#))
        #expect(try twice == object(#"{"a":2}"#))
        #expect(try twice != object(#"{"a":1}"#))
        #expect(try twice != object(#"{"a":2,"a":1}"#))
        // Equal values hash equally, duplicates or not.
        #expect(try twice.hashValue == object(#"{"a":2}"#).hashValue)
    }

    @Test("large objects compare in linear time, duplicates and order included")
    func large() {
        let count = 88_000
        let members = (0..<count).map { JSONObject.Member(key: "k\($0)", value: .number(JSONNumber($0))) }
        let forward = JSONObject(members + [JSONObject.Member(key: "k0", value: "last")])
        let reversed = JSONObject(members.reversed() + [JSONObject.Member(key: "k0", value: "last")])
        #expect(forward == forward)
        #expect(forward == reversed)
        var changed = members
        changed[count / 2].value = "other"
        #expect(forward != JSONObject(changed + [JSONObject.Member(key: "k0", value: "last")]))
        #expect(forward.hashValue == reversed.hashValue)
    }

    @Test("deeply nested objects that differ at the bottom compare once per level")
    func nested() throws {
        // Each level used to compare its child twice: 2^60 comparisons here.
        let depth = 60
        func nest(_ leaf: Int) -> JSONValue {
            var value: JSONValue = .number(JSONNumber(leaf))
            for level in 0..<depth {
                let padding = (0..<9).map { JSONObject.Member(key: "p\($0)", value: .number(JSONNumber(level))) }
                value = .object(JSONObject(padding + [JSONObject.Member(key: "child", value: value)]))
            }
            return value
        }
        #expect(nest(1) != nest(2))
        #expect(nest(1) == nest(1))
    }
}
