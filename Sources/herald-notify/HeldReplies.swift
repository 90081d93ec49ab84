import HeraldBus

/// The gateway's answers to apps' `Notify`, held until heraldd has decided the
/// notification: its bubble goes to the renderer first.
///
/// Sent at once, an answer wakes the person's bus and the app just when heraldd, and then
/// herald-notify, need a core for the bubble (docs/performance.md, "Where the time goes,
/// step by step"). Held, the app waits for its id about as long as a renderer of its own
/// takes to answer, and never longer than ``longest``: an answer heraldd is slow to give
/// does not hold the app's call.
struct HeldReplies {
    /// The longest an answer waits for heraldd.
    static let longest: Duration = .milliseconds(50)
    /// The most answers held: past them, the oldest goes at once.
    static let maximumHeld = 1024

    private var held: [(id: UInt32, reply: BusMessage, due: ContinuousClock.Instant)] = []

    var count: Int { held.count }

    /// Holds `reply`, the answer for notification `id`; returns answers to send now.
    mutating func hold(_ reply: BusMessage, for id: UInt32, now: ContinuousClock.Instant = .now) -> [BusMessage] {
        held.append((id, reply, now + Self.longest))
        guard held.count > Self.maximumHeld else { return [] }
        return [held.removeFirst().reply]
    }

    /// The first answer held for `id` (heraldd answers in the order it was asked).
    mutating func release(_ id: UInt32) -> [BusMessage] {
        guard let index = held.firstIndex(where: { $0.id == id }) else { return [] }
        return [held.remove(at: index).reply]
    }

    /// The answers whose time has come, in order.
    mutating func releaseDue(now: ContinuousClock.Instant = .now) -> [BusMessage] {
        let due = held.prefix { $0.due <= now }.map(\.reply)
        held.removeFirst(due.count)
        return due
    }

    mutating func releaseAll() -> [BusMessage] {
        defer { held.removeAll() }
        return held.map(\.reply)
    }

    /// Milliseconds until the first answer is due, for poll; -1 with none held.
    func pollTimeoutMilliseconds(now: ContinuousClock.Instant = .now) -> Int32 {
        guard let first = held.first else { return -1 }
        return first.due.pollTimeoutMilliseconds(from: now)
    }
}
