import Testing

@testable import HeraldProtocol

/// Which way `HeraldMethod.decodeParams` and `encodeResult` go: params through their
/// `ParamsReadable` reading, a result that takes the direct way with no cast at run time.
@Suite struct HeraldMethodCodingTests {
    /// A result that writes a different value each way.
    private struct ProbeResult: JSONDirectEncodable, Sendable {
        var directJSONValue: JSONValue { "direct" }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode("encodable")
        }
    }

    private struct PlainParams: ParamsReadable, Sendable {
        var app: String
        init(reading value: ParamsReader) throws(RPCError) {
            app = try value.object { members throws(RPCError) in try members.required("app") }
        }
    }

    private enum DirectMethod: HeraldMethod {
        static let name = "direct"
        static let access: MethodAccess = .anyone
        static let journalMessageIDs = JournalMessageIDs(ok: "", error: "")
        typealias Params = PlainParams
        typealias Result = ProbeResult
    }

    private enum PlainMethod: HeraldMethod {
        static let name = "plain"
        static let access: MethodAccess = .anyone
        static let journalMessageIDs = JournalMessageIDs(ok: "", error: "")
        typealias Params = PlainParams
        typealias Result = String
    }

    @Test func directResultsTakeTheDirectWay() throws {
        #expect(try DirectMethod.encodeResult(ProbeResult()) == "direct")
        #expect(try DonateMethod.decodeParams(ParamsReaderTests.minimalMessage).app == "a")
    }

    @Test func paramsAreReadAndOtherResultsEncoded() throws {
        #expect(try PlainMethod.decodeParams(["app": "a"]).app == "a")
        #expect(try PlainMethod.encodeResult("x") == "x")
        #expect(throws: RPCError.invalidParams("`/app` is required.", at: "/app")) { try PlainMethod.decodeParams([:]) }
    }
}
