import Testing

@testable import HeraldCore

@Suite struct DurationTextTests {
    @Test(arguments: [
        ("90", 90.0), ("90s", 90), ("15m", 900), ("12h", 43_200), ("30d", 2_592_000), ("1.5h", 5400), ("0", 0), ("-5m", -300),
    ])
    func readsSecondsAndUnits(text: String, seconds: Double) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "d", "30 d", "30w", "3dd", "nan", "inf", "infd", "0x10", "1e400", "1e400s", "30D", "٣٠d"])
    func refusesAnythingElse(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }
}
