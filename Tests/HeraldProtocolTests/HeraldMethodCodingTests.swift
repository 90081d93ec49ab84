import Testing

@testable import HeraldProtocol

/// Which way `HeraldMethod.decodeParams` and `writeResult` go: params through their
/// `ParamsReadable` reading, a result that takes the direct way with no cast at run time.
@Suite struct HeraldMethodCodingTests {
    /// A result that writes a different value each way.
    private struct ProbeResult: JSONDirectEncodable, Sendable {
        func addMembers(to members: inout JSONDirectMembers) {
            members.add("way", "direct")
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(["way": "encodable"])
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
        static let changesState = false
        static let journalMessageIDs = JournalMessageIDs(ok: "", error: "")
        typealias Params = PlainParams
        typealias Result = ProbeResult
    }

    private enum PlainMethod: HeraldMethod {
        static let name = "plain"
        static let access: MethodAccess = .anyone
        static let changesState = false
        static let journalMessageIDs = JournalMessageIDs(ok: "", error: "")
        typealias Params = PlainParams
        typealias Result = String
    }

    /// The text `Method` writes for `result`.
    private func written<Method: HeraldMethod>(_ method: Method.Type, _ result: Method.Result) throws -> String {
        var output: [UInt8] = []
        try Method.writeResult(result, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func directResultsTakeTheDirectWay() throws {
        #expect(try written(DirectMethod.self, ProbeResult()) == #"{"way":"direct"}"#)
        #expect(try DonateMethod.decodeParams(ParamsReaderTests.minimalMessage).app == "a")
    }

    @Test func paramsAreReadAndOtherResultsEncoded() throws {
        #expect(try PlainMethod.decodeParams(["app": "a"]).app == "a")
        #expect(try written(PlainMethod.self, "x") == #""x""#)
        #expect(throws: RPCError.invalidParams("`/app` is required.", at: "/app")) { try PlainMethod.decodeParams([:]) }
    }
}
