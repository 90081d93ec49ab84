import DequeModule

/// `Notify` calls in flight, by what they show: sent, unanswered, and not yet late. Each
/// becomes late ``lateAfter`` after it went (the bus's call timeout); all wait as long, so
/// their deadlines come in the order sent. The gateway's direct bubbles
/// (``DirectBubbles``) and heraldd's own (``BubbleSends``) each count theirs here.
package struct SendsInFlight<Key: Hashable & Sendable>: Sendable {
    package let lateAfter: Duration
    /// The number of each key's send in flight.
    private var numbers: [Key: Int] = [:]
    /// When each send becomes late, in the order sent: the first is in flight, and those
    /// after it that are not any more are dropped when they come first.
    private var deadlines: Deque<(key: Key, number: Int, at: ContinuousClock.Instant)> = []

    package init(lateAfter: Duration) {
        self.lateAfter = lateAfter
    }

    package var count: Int { numbers.count }

    /// The number of `key`'s send in flight, if one is.
    package subscript(key: Key) -> Int? { numbers[key] }

    /// Send `number` of `key` went at `now`.
    package mutating func add(_ key: Key, number: Int, now: ContinuousClock.Instant) {
        numbers[key] = number
        deadlines.append((key, number, now + lateAfter))
    }

    /// Send `number` of `key` was answered (or failed): it is no longer in flight.
    package mutating func answered(_ key: Key, number: Int) {
        guard numbers[key] == number else { return }
        numbers[key] = nil
        passOver()
    }

    /// The sends in flight since ``lateAfter`` before `now` are late: no longer in flight.
    /// Returns their keys.
    package mutating func markLate(now: ContinuousClock.Instant) -> [Key] {
        var late: [Key] = []
        while let next = deadlines.first, next.at <= now {
            deadlines.removeFirst()
            if numbers[next.key] == next.number {
                numbers[next.key] = nil
                late.append(next.key)
            }
        }
        passOver()
        return late
    }

    /// Milliseconds until the next send in flight is late, for poll; -1 with none.
    package func pollTimeoutMilliseconds(now: ContinuousClock.Instant) -> Int32 {
        deadlines.first?.at.pollTimeoutMilliseconds(from: now) ?? -1
    }

    /// Nothing is in flight any more.
    package mutating func removeAll() {
        self = SendsInFlight(lateAfter: lateAfter)
    }

    /// Drops the deadlines of sends no longer in flight from the front.
    private mutating func passOver() {
        while let next = deadlines.first, numbers[next.key] != next.number { deadlines.removeFirst() }
    }
}
