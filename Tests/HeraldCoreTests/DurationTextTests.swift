import Testing

@testable import HeraldCore

@Suite struct DurationTextTests {
    @Test(arguments: [
        ("90", 90.0), ("90s", 90), ("15m", 900), ("12h", 43_200), ("30d", 2_592_000), ("1.5h", 5400), ("0", 0), ("-5m", -300),
    ])
    func readsSecondsAndUnits(text: String, seconds: Double) {
        #expect(DurationText.seconds(text) == seconds)
    }

    /// Issue 45, item 11: an integer in an error's reason is written as one.
    @Test(arguments: [(0.0, "0"), (-1, "-1"), (86_400, "86400"), (0.5, "0.5"), (-2.25, "-2.25"), (.infinity, "inf"), (1e300, "1e+300")])
    func writesNumbersAsTheClientDid(value: Double, text: String) {
        #expect(DurationText.number(value) == text)
    }

    @Test(arguments: ["", "d", "30 d", "30w", "3dd", "nan", "inf", "infd", "0x10", "1e400", "1e400s", "30D", "٣٠d"])
    func refusesAnythingElse(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }
}
