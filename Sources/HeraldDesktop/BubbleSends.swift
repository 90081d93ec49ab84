import HeraldBus

/// The presenter's `Notify` calls the notification server has not answered yet: each
/// numbered, so that an answer is told from a newer send's of the same bubble.
///
/// At most ``maximumInFlight`` go unanswered at once, and a bubble that replaces one still
/// unanswered (its own, or its thread's last: ``ThreadStacks``) waits for that answer, which
/// names the bubble to replace. A send unanswered for ``lateAfter`` (the bus's call
/// timeout) is late: it gives its place to the next, a bubble replacing it no longer waits
/// for it, and its answer is still waited for, up to
/// ``DesktopNotifications/lateAnswerTimeout``. A late answer that a newer send superseded
/// names a bubble to close, unless it is the very bubble the newer send replaces in place.
/// A server that hangs is sent no more once ``maximumUnanswered`` sends are unanswered,
/// late or not.
package struct BubbleSends: Sendable {
    /// One `Notify` sent: which bubble, which of the sends it is, and the server's id of
    /// the bubble it replaces (0 for a new one).
    package struct Sent: Hashable, Sendable {
        package let key: Bubble.Key
        package let uid: UInt32
        package let replacesID: UInt32
        let number: Int
    }

    /// What an answer is to the presenter.
    package enum Answer: Equatable, Sendable {
        /// The newest send of its bubble: the id it names is the bubble's. `thenClose`: the
        /// bubble was closed while the answer was awaited, and is to be closed now.
        case current(thenClose: Bool)
        /// A newer send replaced it, or its bubble was closed once it was late: the id it
        /// names, unless it is ``Sent/replacesID``, is a bubble of its own to close.
        case superseded
        /// Sent to a server that has gone since (``removeAll()``).
        case forgotten
    }

    package let maximumInFlight: Int
    package var lateAfter: Duration { inFlight.lateAfter }
    /// How many sends may be unanswered, late ones included.
    package var maximumUnanswered: Int { 4 * maximumInFlight }

    /// Every send unanswered, late or not, by its number.
    private var unanswered: [Int: Sent] = [:]
    /// The sends that count among the ``maximumInFlight``: unanswered and not late, by bubble.
    private var inFlight: SendsInFlight<Bubble.Key>
    /// Each bubble's newest send, while it is unanswered and neither superseded nor closed
    /// late: the one whose answer names the bubble.
    private var newest: [Bubble.Key: Int] = [:]
    /// Bubbles closed while their newest send is in flight: closed once it is answered.
    private var closeWhenAnswered: Set<Bubble.Key> = []
    private var sends = 0

    package init(maximumInFlight: Int = 32, lateAfter: Duration = .seconds(10)) {
        self.maximumInFlight = maximumInFlight
        inFlight = SendsInFlight(lateAfter: lateAfter)
    }

    /// How many sends are unanswered, late ones included.
    package var unansweredCount: Int { unanswered.count }

    /// Whether `key`'s newest send is unanswered (in flight or late).
    package func isUnanswered(_ key: Bubble.Key) -> Bool { newest[key] != nil }

    /// The bubbles whose newest send is unanswered, with their uids.
    package var unansweredBubbles: [(key: Bubble.Key, uid: UInt32)] {
        newest.values.compactMap { unanswered[$0] }.map { ($0.key, $0.uid) }
    }

    /// Whether `bubble` may go now: room among the unanswered, and the bubble it replaces
    /// (its own, or its thread's last) not in flight.
    package func canSend(_ bubble: Bubble, threads: ThreadStacks) -> Bool {
        inFlight.count < maximumInFlight && unanswered.count < maximumUnanswered
            && threads.replaced(by: bubble, isShown: { inFlight[$0] != nil }) == nil
    }

    /// Numbers a send of `key`, replacing the server's bubble `replacesID`, in flight from
    /// `now` on. `superseding`: another bubble's late send that this one takes the place of
    /// (its thread's last), whose answer then names a bubble to close.
    package mutating func send(
        _ key: Bubble.Key, uid: UInt32, replacesID: UInt32, superseding other: Bubble.Key? = nil, now: ContinuousClock.Instant = .now
    ) -> Sent {
        sends += 1
        let sent = Sent(key: key, uid: uid, replacesID: replacesID, number: sends)
        unanswered[sent.number] = sent
        inFlight.add(key, number: sent.number, now: now)
        newest[key] = sent.number
        if let other, other != key {
            newest[other] = nil
            closeWhenAnswered.remove(other)
        }
        return sent
    }

    /// The server answered `sent`, or its call failed.
    package mutating func answered(_ sent: Sent) -> Answer {
        guard unanswered.removeValue(forKey: sent.number) != nil else { return .forgotten }
        inFlight.answered(sent.key, number: sent.number)
        guard newest[sent.key] == sent.number else { return .superseded }
        newest[sent.key] = nil
        return .current(thenClose: closeWhenAnswered.remove(sent.key) != nil)
    }

    /// `key`'s bubble is to be closed: returns true when that waits for the answer of its
    /// send in flight (which names it). A late send's bubble is closed at once, by the id
    /// known before it, and the late answer then names a bubble to close.
    package mutating func close(_ key: Bubble.Key) -> Bool {
        guard let number = newest[key] else { return false }
        if inFlight[key] == number {
            closeWhenAnswered.insert(key)
            return true
        }
        newest[key] = nil
        return false
    }

    /// `key` is shown again before its close went: the new send replaces the bubble instead.
    package mutating func showAgain(_ key: Bubble.Key) {
        closeWhenAnswered.remove(key)
    }

    /// The sends in flight since ``lateAfter`` before `now` become late, making room for the
    /// next. Returns how many did, and the bubbles closed while they were in flight: those
    /// are to be closed now (their answers are superseded).
    package mutating func markLate(now: ContinuousClock.Instant = .now) -> (late: Int, toClose: [Bubble.Key]) {
        let late = inFlight.markLate(now: now)
        var toClose: [Bubble.Key] = []
        for key in late where closeWhenAnswered.remove(key) != nil {
            newest[key] = nil
            toClose.append(key)
        }
        return (late.count, toClose)
    }

    /// Milliseconds until the next send in flight becomes late, for poll; -1 with none.
    package func pollTimeoutMilliseconds(now: ContinuousClock.Instant = .now) -> Int32 {
        inFlight.pollTimeoutMilliseconds(now: now)
    }

    /// The server went: every answer still to come is forgotten.
    package mutating func removeAll() {
        unanswered = [:]
        inFlight.removeAll()
        newest = [:]
        closeWhenAnswered = []
    }
}
