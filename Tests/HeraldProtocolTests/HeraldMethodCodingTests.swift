import Testing

@testable import HeraldProtocol

/// Which way `HeraldMethod.decodeParams` and `encodeResult` go: a method whose params or
/// result take the direct way must get it with no cast at run time, from the constrained
/// default implementations.
@Suite struct HeraldMethodCodingTests {
    /// Params that tell which way they were read.
    private struct ProbeParams: JSONDirectDecodable, Sendable {
        var readDirectly: Bool
        init(from decoder: any Decoder) throws { readDirectly = false }
        init(directlyFrom value: JSONValue) { readDirectly = true }
    }

    /// A result that writes a different value each way.
    private struct ProbeResult: JSONDirectEncodable, Sendable {
        var directJSONValue: JSONValue { "direct" }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode("encodable")
        }
    }

    private enum DirectMethod: HeraldMethod {
        static let name = "direct"
        static let journalMessageIDs = JournalMessageIDs(ok: "", error: "")
        typealias Params = ProbeParams
        typealias Result = ProbeResult
    }

    private struct PlainParams: Decodable, Sendable {
        var app: String
    }

    private enum PlainMethod: HeraldMethod {
        static let name = "plain"
        static let journalMessageIDs = JournalMessageIDs(ok: "", error: "")
        typealias Params = PlainParams
        typealias Result = String
    }

    @Test func directTypesTakeTheDirectWay() throws {
        #expect(try DirectMethod.decodeParams([:]).readDirectly)
        #expect(try DirectMethod.encodeResult(ProbeResult()) == "direct")
        #expect(try DonateMethod.decodeParams(DirectDecodingTests.minimalMessage).app == "a")
    }

    @Test func otherTypesGoThroughCodable() throws {
        #expect(try PlainMethod.decodeParams(["app": "a"]).app == "a")
        #expect(try PlainMethod.encodeResult("x") == "x")
        #expect(throws: RPCError.invalidParams("`/app` is required.", at: "/app")) { try PlainMethod.decodeParams([:]) }
    }
}
