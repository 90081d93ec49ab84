import HeraldBus

/// The gateway's notifications on their way to the renderer while heraldd is away: their
/// `Notify` calls go without waiting, at most ``maximumInFlight`` unanswered at once, and
/// the rest wait here in the apps' order.
///
/// Each waits with what it shows, so a notification the gateway no longer keeps a record
/// of is still shown; one sent again while it waits (replaced by its app) waits once, in
/// its first place, with its newest content. One whose earlier bubble is unanswered waits
/// for that answer (its replacement needs the renderer's id), and those after it wait too.
///
/// A `Notify` unanswered for ``lateAfter`` is late: it gives its place among the
/// ``maximumInFlight`` to the next, and a replacement of it no longer waits for it (it
/// replaces the bubble its notification had before, or is shown as a bubble of its own).
/// Its answer still names its bubble: kept for the app's replacement and close, or closed
/// when the app closed it meanwhile or replaced it with another bubble. A
/// renderer that hangs is sent no more once ``maximumUnanswered`` sends, or
/// ``maximumWaitingImageBytes`` of their images, are unanswered, late or not: each holds
/// its message on the bus until its answer or its timeout, and past that the rest wait.
package struct DirectBubbles: Sendable {
    /// One `Notify` sent: its notification, which of the sends it is, and the renderer's
    /// bubble it replaces (its `replaces_id`; 0 for a new one).
    package struct Sent: Hashable, Sendable {
        package let id: UInt32
        let number: Int
        let replacesID: UInt32
    }

    package let maximumInFlight: Int
    /// How many may wait, and their images' bytes: past either, ``isFull``.
    package let maximumWaiting: Int
    package let maximumWaitingImageBytes: Int
    /// How long an unanswered `Notify` keeps its place among the ``maximumInFlight``.
    package var lateAfter: Duration { inFlight.lateAfter }
    /// How many sends may be unanswered, late ones included.
    package var maximumUnanswered: Int { 4 * maximumInFlight }

    /// The ids waiting, in the order they came; the ids of ``waiting``.
    private var order = FilingOrder<UInt32>()
    private var waiting: [UInt32: NotifyArguments] = [:]
    private var waitingImageBytes = 0
    /// The sends that count among the ``maximumInFlight``: unanswered and not late.
    private var inFlight: SendsInFlight<UInt32>
    /// Each notification's newest send, while it is unanswered and the notification not
    /// withdrawn: an answer to any other send names a bubble to close, unless the newest
    /// replaces that same bubble.
    private var newest: [UInt32: Sent] = [:]
    private var sends = 0
    /// Every send unanswered, late or not, by its number: its images' bytes.
    private var unanswered: [Int: Int] = [:]
    private var unansweredImageBytes = 0

    package init(maximumInFlight: Int = 64, maximumWaiting: Int, maximumWaitingImageBytes: Int, lateAfter: Duration = .seconds(10)) {
        self.maximumInFlight = maximumInFlight
        self.maximumWaiting = maximumWaiting
        self.maximumWaitingImageBytes = maximumWaitingImageBytes
        inFlight = SendsInFlight(lateAfter: lateAfter)
    }

    /// Whether as many wait as may: the gateway takes no more calls from the person's bus,
    /// which holds them, until the renderer has taken some.
    package var isFull: Bool { waiting.count >= maximumWaiting || waitingImageBytes >= maximumWaitingImageBytes }

    /// How many wait, and how many are in flight (unanswered, not late).
    package var counts: (waiting: Int, inFlight: Int) { (waiting.count, inFlight.count) }

    /// Files notification `id` to be shown with `arguments`.
    package mutating func add(_ id: UInt32, _ arguments: NotifyArguments) {
        if let earlier = waiting.updateValue(arguments, forKey: id) {
            waitingImageBytes -= earlier.imageBytes
        } else {
            order.file(id)
        }
        waitingImageBytes += arguments.imageBytes
    }

    /// The next notification that may go now, in flight from `now` on, replacing the bubble
    /// its notification has on screen, which `bubble` gives by its id, if any.
    package mutating func next(
        now: ContinuousClock.Instant = .now, replacing bubble: (UInt32) -> UInt32? = { _ in nil }
    ) -> (sent: Sent, arguments: NotifyArguments)? {
        if inFlight.count < maximumInFlight, let id = order.first(), unanswered.count < maximumUnanswered,
            unanswered.isEmpty || unansweredImageBytes < maximumWaitingImageBytes, inFlight[id] == nil,
            var arguments = waiting.removeValue(forKey: id)
        {
            _ = order.popFirst()
            waitingImageBytes -= arguments.imageBytes
            sends += 1
            arguments.replacesID = bubble(id) ?? 0
            let sent = Sent(id: id, number: sends, replacesID: arguments.replacesID)
            unanswered[sent.number] = arguments.imageBytes
            unansweredImageBytes += arguments.imageBytes
            inFlight.add(id, number: sent.number, now: now)
            newest[id] = sent
            return (sent, arguments)
        }
        return nil
    }

    /// The renderer answered `sent` naming `bubble` (nil: the call failed): whether that
    /// bubble is to be closed, as the app withdrew its notification since, or replaced it
    /// with another bubble. One the newest send replaces too is left to that send's answer:
    /// the renderer updates it in place for both and names it to both.
    package mutating func answered(_ sent: Sent, bubble: UInt32?) -> Bool {
        if let imageBytes = unanswered.removeValue(forKey: sent.number) { unansweredImageBytes -= imageBytes }
        inFlight.answered(sent.id, number: sent.number)
        let newer = newest[sent.id]
        if newer?.number == sent.number {
            newest[sent.id] = nil
            return false
        }
        guard let bubble else { return false }
        return bubble != newer?.replacesID
    }

    /// The app closed notification `id`: it is not shown if it waits, and the bubbles of
    /// its unanswered sends are closed once answered.
    package mutating func withdraw(_ id: UInt32) {
        if let arguments = waiting.removeValue(forKey: id) { waitingImageBytes -= arguments.imageBytes }
        order.remove(id)
        newest[id] = nil
    }

    /// The sends in flight since ``lateAfter`` before `now` become late, making room for
    /// the next; returns how many did.
    @discardableResult
    package mutating func markLate(now: ContinuousClock.Instant = .now) -> Int {
        inFlight.markLate(now: now).count
    }

    /// Milliseconds until the next send in flight becomes late, for poll; -1 with none.
    package func pollTimeoutMilliseconds(now: ContinuousClock.Instant = .now) -> Int32 {
        inFlight.pollTimeoutMilliseconds(now: now)
    }
}

extension NotifyArguments {
    /// The bytes of its hints' images (and any other bytes), as the gateway's records count them.
    fileprivate var imageBytes: Int { hints.reduce(0) { $0 + $1.value.byteCount } }
}
