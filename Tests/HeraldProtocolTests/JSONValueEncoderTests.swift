import Foundation
import Testing

@testable import HeraldProtocol

private enum Level: String, JSONEnum {
    case passive, active, timeSensitive
}

private struct Content: Codable, Equatable {
    var title: String
    var subtitle: String?
    var badge: Int
    var level: Level
    var relevanceScore: Double
    var sentAt: Date
    var tags: [String]
    var userInfo: JSONValue
    var flags: [String: Bool]?
}

@Suite("JSONValueEncoder")
struct JSONValueEncoderTests {
    private let encoder = JSONValueEncoder()
    private let content = Content(
        title: "Hi",
        subtitle: nil,
        badge: 3,
        level: .timeSensitive,
        relevanceScore: 0.25,
        sentAt: Date(timeIntervalSince1970: 1_795_356_120.5),
        tags: ["a", "b"],
        userInfo: ["id": .number(JSONNumber(literal: "1.50"))],
        flags: nil
    )

    @Test("keys in encoding order, nil omitted, dates in RFC 3339 with milliseconds, JSONValue as itself")
    func encodes() throws {
        let value = try encoder.encode(content)
        #expect(
            value.compactText
                == #"{"title":"Hi","badge":3,"level":"timeSensitive","relevanceScore":0.25,"sentAt":"2026-11-22T14:02:00.500Z","tags":["a","b"],"userInfo":{"id":1.50}}"#
        )
    }

    @Test("params that are encoded read back as themselves")
    func roundTrip() throws {
        for document in [ParamsReaderTests.fullMessage, ParamsReaderTests.fullCall] {
            let params = try DonateParams.read(params: document)
            #expect(try DonateParams.read(params: try encoder.encode(params)) == params)
        }
    }

    @Test(
        "doubles: integral ones without a fraction, others shortest round-trip",
        arguments: [
            (1.0, "1"), (-2.0, "-2"), (0.1, "0.1"), (1e20, "1e+20"), (1.5, "1.5"),
        ])
    func doubles(_ double: Double, _ literal: String) throws {
        #expect(try encoder.encode(double) == .number(JSONNumber(literal: literal)))
        #expect(try encoder.encode([double]).compactText == "[\(literal)]")
    }

    @Test("non-finite doubles cannot be encoded")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try encoder.encode(Double.nan) }
        #expect(throws: EncodingError.self) { try encoder.encode(["x": Double.infinity]) }
    }

    @Test("integers of every width and optionals in arrays")
    func integers() throws {
        #expect(try encoder.encode([UInt64.max]).compactText == "[18446744073709551615]")
        #expect(try encoder.encode(Int8(-5)).compactText == "-5")
        #expect(try encoder.encode([1, nil, 3] as [Int?]).compactText == "[1,null,3]")
    }

    @Test("nested and super encoders build the expected shape")
    func containers() throws {
        struct Custom: Encodable {
            func encode(to encoder: any Encoder) throws {
                var object = encoder.container(keyedBy: JSONMemberKey.self)
                var list = object.nestedUnkeyedContainer(forKey: JSONMemberKey("list"))
                try list.encode(1)
                var inner = list.nestedContainer(keyedBy: JSONMemberKey.self)
                try inner.encode("v", forKey: JSONMemberKey("k"))
                try "s".encode(to: object.superEncoder())
                try object.encode(false, forKey: JSONMemberKey("list"))
                try object.encode(true, forKey: JSONMemberKey("last"))
            }
        }
        #expect(try encoder.encode(Custom()).compactText == #"{"list":false,"super":"s","last":true}"#)
    }

    @Test("JSONValue and JSONEnum go through Foundation's coders too")
    func foundationCoders() throws {
        let value: JSONValue = ["a": [1, "x", nil, true], "b": 2.5]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        let level = try JSONDecoder().decode([Level].self, from: Data(#"["active"]"#.utf8))
        #expect(level == [.active])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Level].self, from: Data(#"["loud"]"#.utf8)) }
    }
}
