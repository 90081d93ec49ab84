import NIOCore
import Testing

@testable import HeraldServer

/// Issue 49, finding 8: a presenter's events are paced to what it reads, bounded in bytes,
/// and a burst past the bound is counted, not kept; only a presenter that read nothing
/// since it fell behind, for the stall limit, is closed, and only at another burst.
@Suite struct PresenterOutboxTests {
    static let line = ByteBuffer(bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 100))

    /// Offers `count` lines of one burst; returns how many of each action.
    private func offer(_ count: Int, burst: UInt64, to outbox: inout PresenterOutbox) -> [PresenterOutbox.OfferAction: Int] {
        var actions: [PresenterOutbox.OfferAction: Int] = [:]
        for _ in 0..<count { actions[outbox.offer(Self.line, burst: burst), default: 0] += 1 }
        return actions
    }

    /// Completes every write on its way, as a presenter that reads makes them complete;
    /// returns how many lines went and the skipped count told.
    private func read(_ outbox: inout PresenterOutbox, writing firstWrites: Int) -> (lines: Int, skipped: Int) {
        var inFlight = [Int](repeating: 100, count: firstWrites)
        var lines = firstWrites
        var skipped = 0
        while let bytes = inFlight.popLast() {
            let next = outbox.wrote(bytes)
            lines += next.lines.count
            inFlight += next.lines.map(\.readableBytes)
            if let told = next.skipped {
                skipped += told
                outbox.sent(40)
                inFlight.append(40)
            }
        }
        return (lines, skipped)
    }

    @Test func aBurstPastTheBoundIsSentOrCountedAndTheReaderStays() {
        var outbox = PresenterOutbox(window: 1_000, bound: 2_000)
        let actions = offer(10_000, burst: 1, to: &outbox)
        #expect(actions[.write] == 10, "the window's worth written at once")
        #expect(actions[.wait] == 20, "the bound's worth waits")
        #expect(actions[.skip] == 9_970)
        #expect(actions[.close] == nil, "never closed within a burst")
        #expect(outbox.waitingBytes == 2_000 && outbox.isBehind)
        let read = read(&outbox, writing: 10)
        #expect(read.lines == 30 && read.skipped == 9_970, "each sent or counted")
        #expect(!outbox.isBehind && outbox.waitingCount == 0 && outbox.inFlight == 0)
        #expect(offer(1, burst: 2, to: &outbox)[.write] == 1, "itself again")
    }

    @Test func theSkippedAlertsAreCountedApart() {
        var outbox = PresenterOutbox(window: 1_000, bound: 2_000)
        // Alternately an alert and a silenced one: of the 70 skipped, 35 alerts.
        for index in 0..<100 { _ = outbox.offer(Self.line, burst: 1, alert: index % 2 == 0) }
        #expect(outbox.skipped == 70 && outbox.skippedAlerts == 35)
        var told: (skipped: Int?, alerts: Int) = (nil, 0)
        var inFlight = [Int](repeating: 100, count: 10)
        while let bytes = inFlight.popLast() {
            let next = outbox.wrote(bytes)
            inFlight += next.lines.map(\.readableBytes)
            if next.skipped != nil { told = (next.skipped, next.alerts) }
        }
        #expect(told.skipped == 70 && told.alerts == 35)
        #expect(outbox.skippedAlerts == 0, "told once")
    }

    @Test func aPresenterThatReadNothingForTheStallLimitIsClosedAtTheNextBurst() {
        var outbox = PresenterOutbox(window: 1_000, bound: 2_000)
        let start = ContinuousClock.now
        for _ in 0..<100 { _ = outbox.offer(Self.line, burst: 1, now: start) }
        #expect(outbox.offer(Self.line, burst: 2, now: start + .milliseconds(500)) == .skip, "within the stall limit")
        #expect(outbox.offer(Self.line, burst: 3, now: start + PresenterOutbox.defaultStallLimit) == .close)
    }

    /// A presenter that also sends requests makes a burst with each, faster than any write
    /// completes: thousands of bursts with no write between them close nothing, while the
    /// stall limit has not passed.
    @Test func aFloodOfBurstsDoesNotCloseAReader() {
        var outbox = PresenterOutbox(window: 1_000, bound: 2_000)
        let start = ContinuousClock.now
        var closed = 0
        for burst in 1...10_000 where outbox.offer(Self.line, burst: UInt64(burst), now: start + .microseconds(burst * 50)) == .close {
            closed += 1
        }
        #expect(closed == 0)
        #expect(read(&outbox, writing: 10).skipped > 0, "what did not fit is told")
    }

    @Test func aPresenterThatReadsSlowlyIsKeptAcrossBursts() {
        var outbox = PresenterOutbox(window: 1_000, bound: 2_000)
        let start = ContinuousClock.now
        for _ in 0..<100 { _ = outbox.offer(Self.line, burst: 1, now: start) }
        _ = outbox.wrote(100)
        let later = start + PresenterOutbox.defaultStallLimit
        #expect(outbox.offer(Self.line, burst: 2, now: later) == .skip, "it read one since")
        #expect(outbox.offer(Self.line, burst: 3, now: later + .milliseconds(10)) == .skip, "not stalled for long")
        #expect(outbox.offer(Self.line, burst: 4, now: later + PresenterOutbox.defaultStallLimit) == .close, "and nothing since then")
    }

    @Test func oneLineLargerThanTheBoundStillGoes() {
        var outbox = PresenterOutbox(window: 10, bound: 10)
        #expect(outbox.offer(Self.line, burst: 1) == .write)
        #expect(outbox.offer(Self.line, burst: 1) == .wait)
        #expect(outbox.offer(Self.line, burst: 1) == .skip)
        let read = read(&outbox, writing: 1)
        #expect(read.lines == 2 && read.skipped == 1)
    }
}

/// Issue 49, finding 5: an outbox holds no more than its uid's presenters may still hold.
@Suite struct PresenterOutboxRoomTests {
    @Test func aLineBeyondTheUIDsRoomIsSkippedAndCounted() {
        var outbox = PresenterOutbox(window: 1_000, bound: 2_000)
        #expect(outbox.offer(PresenterOutboxTests.line, burst: 1, room: 0) == .write, "holding nothing, one line goes")
        #expect(outbox.offer(PresenterOutboxTests.line, burst: 1, room: 50) == .skip)
        #expect(outbox.heldBytes == 100 && outbox.isBehind)
        let next = outbox.wrote(100)
        #expect(next.lines.isEmpty && next.skipped == 1)
    }
}
