import Foundation
import HeraldProtocol
import HeraldSync
import Testing

/// The Focus message's reader: what it takes, what it refuses and why, and that what
/// herald-sync writes reads back as itself.
struct FocusMessageTests {
    static let work = FocusMessage(
        focus: "Work", until: Date(timeIntervalSince1970: 1_795_930_000), cause: "until", account: "ann", host: "desk",
        time: HybridTimestamp(milliseconds: 1_795_923_857_323, counter: 2)
    )

    @Test func writtenMessageReadsBackAsItself() throws {
        #expect(try FocusMessage.read(Self.work.encoded()) == Self.work)
        var off = Self.work
        off.focus = nil
        off.until = nil
        off.cause = nil
        #expect(try FocusMessage.read(off.encoded()) == off)
        #expect(off.state == .off)
    }

    /// Found by the fuzz target: a time finer than a millisecond is taken at the wire's
    /// precision, so that it reads back as itself once written.
    @Test func aFinerTimeIsTakenToTheMillisecond() throws {
        let text = #"{"focus":"Slep","until":"5314-09-29T07:00:00.0001Z","account":"ann","host":"d","hlc":{"ms":2,"counter":7}}"#
        let message = try FocusMessage.read(Array(text.utf8))
        #expect(RFC3339.format(try #require(message.until)) == "5314-09-29T07:00:00.000Z")
        #expect(try FocusMessage.read(message.encoded()) == message)
    }

    @Test func readsTheSchemaExample() throws {
        let text = #"{"focus":"Work","until":null,"cause":"manual","account":"ann","host":"desk","hlc":{"ms":1795923857323,"counter":0}}"#
        let message = try FocusMessage.read(Array(text.utf8))
        #expect(message.focus == "Work" && message.until == nil && message.host == "desk")
        #expect(message.time == HybridTimestamp(milliseconds: 1_795_923_857_323, counter: 0))
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        ("[1]", "not a JSON object"),
        (#"{"account":"ann","host":"a","hlc":{"ms":1,"counter":0},"colour":"red"}"#, "/colour is not a known member"),
        (#"{"host":"a","hlc":{"ms":1,"counter":0}}"#, "/account must be a string"),
        (#"{"account":"ann","host":"","hlc":{"ms":1,"counter":0}}"#, "/host must be a string"),
        (#"{"focus":3,"account":"ann","host":"a","hlc":{"ms":1,"counter":0}}"#, "/focus must be a string"),
        (#"{"until":"tomorrow","account":"ann","host":"a","hlc":{"ms":1,"counter":0}}"#, "/until is not an RFC 3339 time"),
        (#"{"cause":"whim","account":"ann","host":"a","hlc":{"ms":1,"counter":0}}"#, "/cause is not one of"),
        (#"{"account":"ann","host":"a","hlc":{"ms":-1,"counter":0}}"#, "/hlc must be"),
        (#"{"account":"ann","host":"a","hlc":{"ms":1.5,"counter":0}}"#, "/hlc must be"),
        (#"{"account":"ann","host":"a","hlc":{"ms":1,"counter":0,"x":1}}"#, "/hlc must be"),
        (#"{"account":"ann","host":"a","hlc":[[[[[[1]]]]]]}"#, "not JSON"),
    ])
    func refusesWithTheMemberAtFault(text: String, reason: String) {
        let refusal = #expect(throws: FocusMessage.Refusal.self) { try FocusMessage.read(Array(text.utf8)) }
        #expect(refusal?.description.contains(reason) == true, "\(String(describing: refusal))")
    }

    @Test func refusesPastTheSizeBoundBeforeReading() {
        let long = Array(#"{"focus":"\#(String(repeating: "x", count: FocusMessage.maximumBytes))"}"#.utf8)
        let refusal = #expect(throws: FocusMessage.Refusal.self) { try FocusMessage.read(long) }
        #expect(refusal?.description.contains("more than \(FocusMessage.maximumBytes)") == true)
    }

    @Test func laterTimeWinsAndTheHostBreaksTies() {
        let time = HybridTimestamp(milliseconds: 100, counter: 1)
        var change = Self.work
        change.time = time
        change.host = "b"
        #expect(change.isNewer(than: HybridTimestamp(milliseconds: 100, counter: 0), host: "z"))
        #expect(change.isNewer(than: time, host: "a"))
        #expect(!change.isNewer(than: time, host: "b"))
        #expect(!change.isNewer(than: time, host: "c"))
        #expect(!change.isNewer(than: HybridTimestamp(milliseconds: 101, counter: 0), host: "a"))
    }
}

/// The hybrid logical clock: never back, always past what it has seen.
struct HybridLogicalClockTests {
    @Test func ticksForwardWhenTheWallClockStandsStillOrGoesBack() {
        var clock = HybridLogicalClock()
        let first = clock.tick(now: 1000)
        let second = clock.tick(now: 1000)
        let third = clock.tick(now: 900)
        #expect(first < second && second < third)
        #expect(third == HybridTimestamp(milliseconds: 1000, counter: 2))
        #expect(clock.tick(now: 1001) == HybridTimestamp(milliseconds: 1001, counter: 0))
    }

    @Test func aChangeAfterWitnessingIsLaterThanWhatWasWitnessed() {
        var clock = HybridLogicalClock()
        _ = clock.tick(now: 1000)
        // Another host, its wall clock an hour ahead.
        let remote = HybridTimestamp(milliseconds: 3_601_000, counter: 4)
        clock.witness(remote, now: 1001)
        #expect(clock.tick(now: 1002) == HybridTimestamp(milliseconds: 3_601_000, counter: 5))
        // A remote time behind ours moves nothing back.
        clock.witness(HybridTimestamp(milliseconds: 5, counter: 9), now: 1003)
        #expect(clock.tick(now: 1004) == HybridTimestamp(milliseconds: 3_601_000, counter: 6))
        // The wall clock passing both takes over with a fresh counter.
        clock.witness(HybridTimestamp(milliseconds: 3_601_000, counter: 1), now: 4_000_000)
        #expect(clock.last == HybridTimestamp(milliseconds: 4_000_000, counter: 0))
    }
}
