import HeraldBus
import HeraldDesktop
import Testing

/// What the gateway sends the renderer while heraldd is away: in order, a bounded number
/// unanswered at once, nothing lost.
@Suite struct DirectBubblesTests {
    static func arguments(_ summary: String, imageBytes: Int = 0) -> NotifyArguments {
        NotifyArguments(
            appName: "org.example.chat", summary: summary,
            hints: imageBytes > 0 ? [("image-data", .bytes([UInt8](repeating: 1, count: imageBytes)))] : []
        )
    }

    /// Takes every notification that may go now, by its id; `sends` gets each send.
    static func drain(_ bubbles: inout DirectBubbles, now: ContinuousClock.Instant = .now) -> [UInt32] {
        var sends: [UInt32: DirectBubbles.Sent] = [:]
        return drain(&bubbles, now: now, into: &sends)
    }

    static func drain(
        _ bubbles: inout DirectBubbles, now: ContinuousClock.Instant = .now, into sends: inout [UInt32: DirectBubbles.Sent]
    ) -> [UInt32] {
        var ids: [UInt32] = []
        while let (sent, _) = bubbles.next(now: now) {
            ids.append(sent.id)
            sends[sent.id] = sent
        }
        return ids
    }

    @Test func atMostSoManyAreUnansweredAndEachAnswerLetsTheNextGo() {
        var bubbles = DirectBubbles(maximumInFlight: 3, maximumWaiting: 100, maximumWaitingImageBytes: 1 << 20)
        var sends: [UInt32: DirectBubbles.Sent] = [:]
        for id in UInt32(1)...10 { bubbles.add(id, Self.arguments("n\(id)")) }
        #expect(Self.drain(&bubbles, into: &sends) == [1, 2, 3])
        #expect(bubbles.counts == (waiting: 7, inFlight: 3))
        #expect(bubbles.answered(sends[2]!, bubble: 2) == false)
        #expect(Self.drain(&bubbles, into: &sends) == [4])
        for id in [UInt32(1), 3, 4] { _ = bubbles.answered(sends[id]!, bubble: id) }
        #expect(Self.drain(&bubbles) == [5, 6, 7])
    }

    /// The app replaced a waiting notification: it waits once, in its place, with its new text.
    @Test func aNotificationSentAgainWhileItWaitsIsShownOnceWithItsNewestContent() {
        var bubbles = DirectBubbles(maximumInFlight: 10, maximumWaiting: 100, maximumWaitingImageBytes: 1 << 20)
        bubbles.add(1, Self.arguments("Backup 10%"))
        bubbles.add(2, Self.arguments("Mail"))
        bubbles.add(1, Self.arguments("Backup 90%"))
        let first = bubbles.next()
        #expect(first?.sent.id == 1 && first?.arguments.summary == "Backup 90%")
        #expect(bubbles.next()?.sent.id == 2)
        #expect(bubbles.next() == nil)
    }

    /// A replacement of a bubble whose Notify is unanswered needs the renderer's id of it:
    /// it waits for that answer, and those after it wait too, in order.
    @Test func aReplacementWaitsForItsBubblesIdAndKeepsTheOrder() {
        var bubbles = DirectBubbles(maximumInFlight: 10, maximumWaiting: 100, maximumWaitingImageBytes: 1 << 20)
        var sends: [UInt32: DirectBubbles.Sent] = [:]
        bubbles.add(1, Self.arguments("Backup 10%"))
        #expect(Self.drain(&bubbles, into: &sends) == [1])
        bubbles.add(1, Self.arguments("Backup 90%"))
        bubbles.add(2, Self.arguments("Mail"))
        #expect(Self.drain(&bubbles) == [])
        #expect(bubbles.answered(sends[1]!, bubble: 1) == false)
        #expect(Self.drain(&bubbles) == [1, 2])
    }

    /// The app closed it: one waiting is never sent; one on its way is closed once answered.
    @Test func aWithdrawnNotificationIsNotShownOrIsClosedOnceAnswered() {
        var bubbles = DirectBubbles(maximumInFlight: 1, maximumWaiting: 100, maximumWaitingImageBytes: 1 << 20)
        var sends: [UInt32: DirectBubbles.Sent] = [:]
        for id in UInt32(1)...3 { bubbles.add(id, Self.arguments("n\(id)")) }
        #expect(Self.drain(&bubbles, into: &sends) == [1])
        bubbles.withdraw(1)
        bubbles.withdraw(2)
        #expect(bubbles.answered(sends[1]!, bubble: 1) == true)
        #expect(Self.drain(&bubbles, into: &sends) == [3])
        #expect(bubbles.answered(sends[3]!, bubble: 3) == false)
        // Filed again after it was withdrawn, it is shown.
        bubbles.add(2, Self.arguments("n2 again"))
        #expect(bubbles.next()?.arguments.summary == "n2 again")
    }

    /// Full by count or by images' bytes: the gateway's bus then waits; sending makes room.
    @Test func itIsFullBySoManyWaitingOrSoManyImageBytes() {
        var bubbles = DirectBubbles(maximumInFlight: 1, maximumWaiting: 3, maximumWaitingImageBytes: 1000)
        for id in UInt32(1)...3 { bubbles.add(id, Self.arguments("n\(id)")) }
        #expect(bubbles.isFull)
        _ = bubbles.next()
        #expect(!bubbles.isFull)

        var images = DirectBubbles(maximumInFlight: 1, maximumWaiting: 100, maximumWaitingImageBytes: 1000)
        images.add(1, Self.arguments("photo", imageBytes: 600))
        #expect(!images.isFull)
        images.add(2, Self.arguments("photo", imageBytes: 600))
        #expect(images.isFull)
        images.withdraw(2)
        #expect(!images.isFull)
    }

    /// Many sent through, some withdrawn: none is lost or sent twice, in order.
    @Test func aLongRunSendsEachOnceInOrder() {
        var bubbles = DirectBubbles(maximumInFlight: 64, maximumWaiting: 10_000, maximumWaitingImageBytes: 1 << 20)
        var sent: [UInt32] = []
        for id in UInt32(1)...5_000 {
            bubbles.add(id, Self.arguments("n\(id)"))
            if id % 7 == 0 { bubbles.withdraw(id) }
            var sends: [UInt32: DirectBubbles.Sent] = [:]
            let now = Self.drain(&bubbles, into: &sends)
            sent += now
            for answered in now { _ = bubbles.answered(sends[answered]!, bubble: answered) }
        }
        #expect(sent == (UInt32(1)...5_000).filter { $0 % 7 != 0 })
        #expect(bubbles.counts == (waiting: 0, inFlight: 0))
    }

    /// A `Notify` unanswered for `lateAfter` gives its place to the next; once it is
    /// answered, its bubble is kept (the app's to replace and close), and none waits on it.
    @Test func aLateNotifyMakesRoomAndItsAnswerStillNamesItsBubble() {
        let start = ContinuousClock.now
        var bubbles = DirectBubbles(maximumInFlight: 2, maximumWaiting: 100, maximumWaitingImageBytes: 1 << 20, lateAfter: .seconds(10))
        var sends: [UInt32: DirectBubbles.Sent] = [:]
        for id in UInt32(1)...4 { bubbles.add(id, Self.arguments("n\(id)")) }
        #expect(Self.drain(&bubbles, now: start, into: &sends) == [1, 2])
        #expect(bubbles.pollTimeoutMilliseconds(now: start) > 0)
        #expect(bubbles.markLate(now: start + .seconds(9)) == 0)
        #expect(bubbles.answered(sends[2]!, bubble: 2) == false)
        #expect(Self.drain(&bubbles, now: start + .seconds(9), into: &sends) == [3])
        // 1 is late, 3 is not yet: 4 goes in 1's place.
        #expect(bubbles.markLate(now: start + .seconds(10)) == 1)
        #expect(bubbles.pollTimeoutMilliseconds(now: start + .seconds(10)) > 0)
        #expect(Self.drain(&bubbles, now: start + .seconds(10), into: &sends) == [4])
        #expect(bubbles.answered(sends[1]!, bubble: 1) == false)
        for id in [UInt32(3), 4] { _ = bubbles.answered(sends[id]!, bubble: id) }
        #expect(bubbles.pollTimeoutMilliseconds(now: start + .seconds(10)) == -1)
        #expect(bubbles.counts == (waiting: 0, inFlight: 0))
    }

    /// A replacement of a late bubble goes as a bubble of its own; the late one's answer
    /// then names a bubble to close, whichever answer comes first. One withdrawn while late
    /// is closed once answered.
    @Test func aLateBubbleReplacedOrWithdrawnMeanwhileIsClosedOnceAnswered() {
        let start = ContinuousClock.now
        var bubbles = DirectBubbles(maximumInFlight: 10, maximumWaiting: 100, maximumWaitingImageBytes: 1 << 20, lateAfter: .seconds(10))
        bubbles.add(1, Self.arguments("Backup 10%"))
        bubbles.add(2, Self.arguments("Mail"))
        let first = bubbles.next(now: start)
        let mail = bubbles.next(now: start)
        bubbles.add(1, Self.arguments("Backup 90%"))
        #expect(bubbles.next(now: start) == nil)
        #expect(bubbles.markLate(now: start + .seconds(10)) == 2)
        let again = bubbles.next(now: start + .seconds(10))
        #expect(again?.sent.id == 1 && again?.arguments.summary == "Backup 90%")
        #expect(bubbles.answered(again!.sent, bubble: 3) == false)
        #expect(bubbles.answered(first!.sent, bubble: 1) == true)
        bubbles.withdraw(2)
        #expect(bubbles.answered(mail!.sent, bubble: 2) == true)
    }

    /// A late replacement of the bubble on screen and the app's next one, sent past it, both
    /// replace that bubble: the renderer names it to both, and the late answer leaves it to
    /// the newer one's. A late send the renderer showed as a bubble of its own is closed, and
    /// so is the bubble of one withdrawn meanwhile, in place or not.
    @Test func aLateAnswerLeavesTheBubbleANewerSendReplacesInPlace() {
        let start = ContinuousClock.now
        var bubbles = DirectBubbles(maximumInFlight: 10, maximumWaiting: 100, maximumWaitingImageBytes: 1 << 20, lateAfter: .seconds(10))
        var onScreen: [UInt32: UInt32] = [:]
        func next(_ summary: String, at seconds: Int) -> (sent: DirectBubbles.Sent, arguments: NotifyArguments)? {
            bubbles.add(1, Self.arguments(summary))
            return bubbles.next(now: start + .seconds(seconds), replacing: { onScreen[$0] })
        }
        let shown = next("Backup 10%", at: 0)!
        #expect(shown.arguments.replacesID == 0)
        #expect(bubbles.answered(shown.sent, bubble: 5) == false)
        onScreen[1] = 5

        let late = next("Backup 50%", at: 0)!
        #expect(late.arguments.replacesID == 5)
        #expect(next("Backup 70%", at: 0) == nil)
        #expect(bubbles.markLate(now: start + .seconds(10)) == 1)
        let newer = bubbles.next(now: start + .seconds(10), replacing: { onScreen[$0] })!
        #expect(newer.arguments.replacesID == 5 && newer.arguments.summary == "Backup 70%")
        #expect(bubbles.answered(late.sent, bubble: 5) == false)
        #expect(bubbles.answered(newer.sent, bubble: 5) == false)

        let lateOfItsOwn = next("Backup 80%", at: 10)!
        #expect(next("Backup 90%", at: 10) == nil)
        #expect(bubbles.markLate(now: start + .seconds(20)) == 1)
        let newest = bubbles.next(now: start + .seconds(20), replacing: { onScreen[$0] })!
        #expect(bubbles.answered(lateOfItsOwn.sent, bubble: 6) == true)
        #expect(bubbles.answered(newest.sent, bubble: 5) == false)

        let withdrawn = next("Backup 100%", at: 20)!
        bubbles.withdraw(1)
        #expect(bubbles.answered(withdrawn.sent, bubble: 5) == true)
    }

    /// A renderer that hangs is sent no more than so many, late or not, nor past so many
    /// bytes of images: the rest wait, and an answer (or a call's timeout) lets the next go.
    @Test func aHungRendererIsSentSoManyAndNoMoreUntilAnAnswerComes() {
        let start = ContinuousClock.now
        var bubbles = DirectBubbles(maximumInFlight: 2, maximumWaiting: 100, maximumWaitingImageBytes: 1 << 20, lateAfter: .seconds(10))
        var sends: [UInt32: DirectBubbles.Sent] = [:]
        for id in UInt32(1)...20 { bubbles.add(id, Self.arguments("n\(id)")) }
        var sent: [UInt32] = []
        for second in 0..<10 {
            let now = start + .seconds(10 * second)
            bubbles.markLate(now: now)
            sent += Self.drain(&bubbles, now: now, into: &sends)
        }
        #expect(bubbles.maximumUnanswered == 8)
        #expect(sent == Array(1...8))
        #expect(bubbles.answered(sends[1]!, bubble: 1) == false)
        #expect(Self.drain(&bubbles, now: start + .seconds(100)) == [9])

        var images = DirectBubbles(maximumInFlight: 10, maximumWaiting: 100, maximumWaitingImageBytes: 1_000)
        for id in UInt32(1)...4 { images.add(id, Self.arguments("n\(id)", imageBytes: 600)) }
        var imageSends: [UInt32: DirectBubbles.Sent] = [:]
        #expect(Self.drain(&images, into: &imageSends) == [1, 2])
        #expect(images.answered(imageSends[1]!, bubble: 1) == false)
        #expect(Self.drain(&images, into: &imageSends) == [3])
    }
}
