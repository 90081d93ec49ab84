import Testing

@testable import HeraldProtocol

/// Inputs the fuzzing targets in `Fuzz/` found, kept so that their fixes hold.
@Suite("Fuzzing regressions")
struct FuzzRegressionTests {
    /// framer-parser, on the tree before objects compared in linear time: a text with a
    /// duplicate name was not equal to itself once written back and parsed again, since
    /// `==` looked each member up by name and found the last one's value.
    @Test("An object with duplicate names equals itself, written back and parsed again")
    func duplicateNamesRoundTrip() throws {
        let text = #"{"jsonrpc":"2.0","id":16,"metjsonrpc":"2.0","id":1,"method":"stats","params":{"a":{"b":{"c":{}}}}}"#
        let value = try JSONParser.parse(text)
        #expect(value == value)
        var written: [UInt8] = []
        value.write(to: &written)
        #expect(try JSONParser.parse(written) == value)
    }
}
