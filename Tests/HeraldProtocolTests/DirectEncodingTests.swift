import Foundation
import Testing

@testable import HeraldProtocol

/// The results that write themselves (`JSONDirectEncodable`) against `Encodable`.
@Suite struct DirectEncodingTests {
    @Test(arguments: [
        DonateResult(identifier: "m-17", donatedAt: Date(timeIntervalSince1970: 1_795_356_120.25)),
        DonateResult(identifier: "", donatedAt: Date(timeIntervalSince1970: 0)),
        DonateResult(identifier: "with \"quotes\" and ünïcode", donatedAt: Date(timeIntervalSince1970: -1.0005)),
    ])
    func donateResultIsWhatEncodableWrites(result: DonateResult) throws {
        let direct = try JSONValueEncoder().encode(result)
        let throughEncodable = try JSONValueEncoder(writesDirectly: false).encode(result)
        #expect(direct == throughEncodable)
        // Equality ignores member order; the text does not.
        #expect(direct.compactText == throughEncodable.compactText)
    }
}
