import HeraldBus

/// The gateway's notifications on their way to the renderer while heraldd is away: their
/// `Notify` calls go without waiting, at most ``maximumInFlight`` unanswered at once, and
/// the rest wait here in the apps' order.
///
/// Each waits with what it shows, so a notification the gateway no longer keeps a record
/// of is still shown; one sent again while it waits (replaced by its app) waits once, in
/// its first place, with its newest content. One whose earlier bubble is unanswered waits
/// for that answer (its replacement needs the renderer's id), and those after it wait too.
package struct DirectBubbles: Sendable {
    package let maximumInFlight: Int
    /// How many may wait, and their images' bytes: past either, ``isFull``.
    package let maximumWaiting: Int
    package let maximumWaitingImageBytes: Int

    /// The ids waiting, in order from `orderStart`; one withdrawn or sent since is passed over.
    private var order: [UInt32] = []
    private var orderStart = 0
    private var waiting: [UInt32: NotifyArguments] = [:]
    private var waitingImageBytes = 0
    /// The notifications whose `Notify` is unanswered: true for one withdrawn meanwhile,
    /// whose bubble is closed once the renderer names it.
    private var inFlight: [UInt32: Bool] = [:]

    package init(maximumInFlight: Int = 64, maximumWaiting: Int, maximumWaitingImageBytes: Int) {
        self.maximumInFlight = maximumInFlight
        self.maximumWaiting = maximumWaiting
        self.maximumWaitingImageBytes = maximumWaitingImageBytes
    }

    /// Whether as many wait as may: the gateway takes no more calls from the person's bus,
    /// which holds them, until the renderer has taken some.
    package var isFull: Bool { waiting.count >= maximumWaiting || waitingImageBytes >= maximumWaitingImageBytes }

    /// How many wait, and how many are unanswered.
    package var counts: (waiting: Int, inFlight: Int) { (waiting.count, inFlight.count) }

    /// Files notification `id` to be shown with `arguments`.
    package mutating func add(_ id: UInt32, _ arguments: NotifyArguments) {
        if let earlier = waiting.updateValue(arguments, forKey: id) {
            waitingImageBytes -= earlier.imageBytes
        } else {
            order.append(id)
        }
        waitingImageBytes += arguments.imageBytes
    }

    /// The next notification that may go now, counted as unanswered from here on.
    package mutating func next() -> (id: UInt32, arguments: NotifyArguments)? {
        defer { compact() }
        while inFlight.count < maximumInFlight, orderStart < order.count {
            let id = order[orderStart]
            guard let arguments = waiting[id] else {
                orderStart += 1
                continue
            }
            guard inFlight[id] == nil else { return nil }
            orderStart += 1
            waiting[id] = nil
            waitingImageBytes -= arguments.imageBytes
            inFlight[id] = false
            return (id, arguments)
        }
        return nil
    }

    /// The renderer answered notification `id`'s `Notify`: whether it was withdrawn meanwhile.
    package mutating func answered(_ id: UInt32) -> Bool {
        inFlight.removeValue(forKey: id) ?? false
    }

    /// The app closed notification `id`: it is not shown if it waits, and its bubble is
    /// closed once answered if its `Notify` is unanswered.
    package mutating func withdraw(_ id: UInt32) {
        if let arguments = waiting.removeValue(forKey: id) { waitingImageBytes -= arguments.imageBytes }
        if inFlight[id] != nil { inFlight[id] = true }
    }

    /// Drops the ids passed over once they are most of the array.
    private mutating func compact() {
        guard orderStart > 1024, orderStart * 2 > order.count else { return }
        order.removeFirst(orderStart)
        orderStart = 0
    }
}

extension NotifyArguments {
    /// The bytes of its hints' images (and any other bytes), as the gateway's records count them.
    fileprivate var imageBytes: Int { hints.reduce(0) { $0 + $1.value.byteCount } }
}
