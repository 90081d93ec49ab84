import Foundation
import Testing

@testable import HeraldProtocol

@Suite("RFC3339")
struct RFC3339Tests {
    private let reference = Date(timeIntervalSince1970: 1_795_356_120)

    @Test("parses UTC, offsets, fractions and lowercase separators")
    func parses() throws {
        #expect(RFC3339.parse("2026-11-22T14:02:00Z") == reference)
        #expect(RFC3339.parse("2026-11-22t14:02:00z") == reference)
        #expect(RFC3339.parse("2026-11-22T16:32:00+02:30") == reference)
        #expect(RFC3339.parse("2026-11-22T09:02:00-05:00") == reference)
        let fractional = try #require(RFC3339.parse("2026-11-22T14:02:00.123456789Z"))
        #expect(abs(fractional.timeIntervalSince(reference) - 0.123456789) < 1e-6)
        #expect(RFC3339.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(RFC3339.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        #expect(RFC3339.parse("2024-02-29T00:00:00Z") != nil)
        #expect(RFC3339.parse("2000-02-29T00:00:00Z") != nil)
    }

    @Test(
        "rejects malformed or out-of-range date-times",
        arguments: [
            "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-11-22T24:00:00Z",
            "2026-11-22T14:60:00Z", "2026-11-22T14:02:60Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
            "2026-04-31T00:00:00Z", "2026-11-22T14:02:00", "2026-11-22 14:02:00Z", "2026-11-22T14:02:00.Z",
            "2026-11-22T14:02:00+0200", "2026-11-22T14:02:00+24:00", "2026-11-22T14:02:00Zjunk", "26-11-22T14:02:00Z",
            "2026-11-22T14:02Z", "", "2026-1a-22T14:02:00Z",
        ]
    )
    func rejects(_ text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test("formats UTC with exactly three fractional digits")
    func formats() {
        #expect(RFC3339.format(reference) == "2026-11-22T14:02:00.000Z")
        #expect(RFC3339.format(reference.addingTimeInterval(0.5)) == "2026-11-22T14:02:00.500Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        // Always 24 bytes: a year past 9999 keeps its last four digits.
        #expect(RFC3339.format(Date(timeIntervalSince1970: 253_402_300_800)) == "0000-01-01T00:00:00.000Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000Z")
    }

    @Test("writes a date as a JSON string after what a buffer holds, as format does")
    func writesQuoted() {
        let dates = [
            reference, reference.addingTimeInterval(0.5), Date(timeIntervalSince1970: -0.001),
            Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: .nan),
        ]
        for date in dates {
            var text = Array(#"{"donatedAt":"#.utf8)
            RFC3339.writeQuoted(date, to: &text)
            #expect(String(decoding: text, as: UTF8.self) == #"{"donatedAt":""# + RFC3339.format(date) + #"""#)
        }
    }

    @Test("format and parse round-trip to the millisecond")
    func roundTrip() throws {
        for milliseconds in stride(from: -86_400_000_123 as Int64, to: 4_102_444_800_000, by: 7_777_777_777) {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = RFC3339.format(date)
            let parsed = try #require(RFC3339.parse(text))
            #expect(Int64((parsed.timeIntervalSince1970 * 1000).rounded()) == milliseconds, "\(text)")
        }
        #expect(RFC3339.format(try #require(RFC3339.parse("2026-11-22T14:02:00.123Z"))) == "2026-11-22T14:02:00.123Z")
    }
}
