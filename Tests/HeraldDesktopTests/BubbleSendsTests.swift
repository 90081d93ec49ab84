import HeraldBus
import HeraldDesktop
import HeraldProtocol
import Testing

/// heraldd's bubbles on their way to the notification server: a bounded number in flight, a
/// late answer still naming its bubble, and a superseded one closing only a bubble of its own.
@Suite struct BubbleSendsTests {
    static func bubble(_ identifier: String, thread: String? = nil) -> Bubble {
        Bubble(
            key: .notification(NotificationKey(app: "org.example.chat", identifier: identifier)),
            arguments: NotifyArguments(appName: "org.example.chat", summary: identifier), thread: thread
        )
    }

    static let start = ContinuousClock.now

    @Test func atMostSoManyAreInFlightAndALateOneGivesItsPlace() {
        var sends = BubbleSends(maximumInFlight: 2, lateAfter: .seconds(10))
        let threads = ThreadStacks()
        let first = sends.send(Self.bubble("a").key, uid: 1000, replacesID: 0, now: Self.start)
        _ = sends.send(Self.bubble("b").key, uid: 1000, replacesID: 0, now: Self.start + .seconds(1))
        #expect(!sends.canSend(Self.bubble("c"), threads: threads))
        #expect(sends.pollTimeoutMilliseconds(now: Self.start) == 10_001)
        let lateAt9s = sends.markLate(now: Self.start + .seconds(9)).late
        #expect(lateAt9s == 0)
        let lateAt10s = sends.markLate(now: Self.start + .seconds(10)).late
        #expect(lateAt10s == 1)
        #expect(sends.canSend(Self.bubble("c"), threads: threads))
        #expect(sends.pollTimeoutMilliseconds(now: Self.start + .seconds(10)) == 1_001)
        // Late, it is still the bubble's newest: its answer names the bubble.
        #expect(sends.isUnanswered(first.key))
        let firstAnswer = sends.answered(first)
        #expect(firstAnswer == .current(thenClose: false))
        #expect(sends.unansweredCount == 1)
    }

    /// A server that hangs: late sends stop counting among those in flight, but no more go
    /// once four times as many are unanswered.
    @Test func aHungServerIsSentSoManyAndNoMore() {
        var sends = BubbleSends(maximumInFlight: 2, lateAfter: .seconds(10))
        let threads = ThreadStacks()
        var sent = 0
        var now = Self.start
        for round in 0..<10 {
            while sends.canSend(Self.bubble("n\(sent)"), threads: threads) {
                _ = sends.send(Self.bubble("n\(sent)").key, uid: 1000, replacesID: 0, now: now)
                sent += 1
            }
            now += .seconds(11)
            _ = sends.markLate(now: now)
            #expect(sent == min(2 * (round + 1), 8))
        }
        #expect(sends.unansweredCount == 8)
    }

    /// The bubble's own replacement goes once the first is late; the late answer is then
    /// superseded, and the replacement's is the bubble's.
    @Test func aReplacementGoesPastALateSendAndSupersedesIt() {
        var sends = BubbleSends(maximumInFlight: 4, lateAfter: .seconds(10))
        let threads = ThreadStacks()
        let key = Self.bubble("a").key
        let late = sends.send(key, uid: 1000, replacesID: 7, now: Self.start)
        #expect(!sends.canSend(Self.bubble("a"), threads: threads))
        _ = sends.markLate(now: Self.start + .seconds(10))
        #expect(sends.canSend(Self.bubble("a"), threads: threads))
        let newer = sends.send(key, uid: 1000, replacesID: 7, superseding: key, now: Self.start + .seconds(10))
        let lateAnswer = sends.answered(late)
        #expect(lateAnswer == .superseded)
        let newerAnswer = sends.answered(newer)
        #expect(newerAnswer == .current(thenClose: false))
        #expect(!sends.isUnanswered(key))
    }

    /// Where the server stacks no thread, a thread's next bubble replaces its last: once
    /// that one's send is late, the next goes and supersedes it.
    @Test func aThreadsNextBubbleSupersedesItsLastOnceLate() {
        var sends = BubbleSends(maximumInFlight: 4, lateAfter: .seconds(10))
        var threads = ThreadStacks()
        let a = Self.bubble("a", thread: "t")
        let b = Self.bubble("b", thread: "t")
        let sentA = sends.send(a.key, uid: 1000, replacesID: 0, now: Self.start)
        threads.showed(a)
        #expect(!sends.canSend(b, threads: threads))
        _ = sends.markLate(now: Self.start + .seconds(10))
        #expect(sends.canSend(b, threads: threads))
        let superseded = threads.replaced(by: b) { sends.isUnanswered($0) }
        #expect(superseded == a.key)
        let sentB = sends.send(b.key, uid: 1000, replacesID: 0, superseding: superseded, now: Self.start + .seconds(10))
        #expect(!sends.isUnanswered(a.key))
        let answerOfA = sends.answered(sentA)
        #expect(answerOfA == .superseded)
        let answerOfB = sends.answered(sentB)
        #expect(answerOfB == .current(thenClose: false))
    }

    /// Closed while its send is in flight, a bubble is closed once the answer names it; once
    /// that send is late, it is closed at once, and the late answer is superseded.
    @Test func aBubbleClosedInFlightWaitsForItsIdUntilItsSendIsLate() {
        var sends = BubbleSends(maximumInFlight: 4, lateAfter: .seconds(10))
        let a = Self.bubble("a").key
        let b = Self.bubble("b").key
        let sentA = sends.send(a, uid: 1000, replacesID: 0, now: Self.start)
        let sentB = sends.send(b, uid: 1000, replacesID: 0, now: Self.start)
        let aWaits = sends.close(a)
        #expect(aWaits)
        let bWaits = sends.close(b)
        #expect(bWaits)
        let answerOfA = sends.answered(sentA)
        #expect(answerOfA == .current(thenClose: true))
        let (late, toClose) = sends.markLate(now: Self.start + .seconds(10))
        #expect(late == 1 && toClose == [b])
        let bWaitsOnceLate = sends.close(b)
        #expect(!bWaitsOnceLate)
        let answerOfB = sends.answered(sentB)
        #expect(answerOfB == .superseded)
    }

    /// Shown again before its close went, the bubble is replaced instead of closed.
    @Test func aBubbleShownAgainBeforeItsCloseWentIsNotClosed() {
        var sends = BubbleSends(maximumInFlight: 4, lateAfter: .seconds(10))
        let a = Self.bubble("a").key
        let sent = sends.send(a, uid: 1000, replacesID: 0, now: Self.start)
        let waits = sends.close(a)
        #expect(waits)
        sends.showAgain(a)
        let answer = sends.answered(sent)
        #expect(answer == .current(thenClose: false))
    }

    /// The server went: answers still to come are forgotten, and nothing is in flight.
    @Test func answersFromAServerThatWentAreForgotten() {
        var sends = BubbleSends(maximumInFlight: 1, lateAfter: .seconds(10))
        let sent = sends.send(Self.bubble("a").key, uid: 1000, replacesID: 0, now: Self.start)
        sends.removeAll()
        let answer = sends.answered(sent)
        #expect(answer == .forgotten)
        #expect(sends.canSend(Self.bubble("b"), threads: ThreadStacks()))
        #expect(sends.pollTimeoutMilliseconds(now: Self.start) == -1)
        #expect(sends.unansweredBubbles.isEmpty)
    }
}
