/// `Notify` calls in flight, by what they show: sent, unanswered, and not yet late. Each
/// becomes late ``lateAfter`` after it went (the bus's call timeout); all wait as long, so
/// their deadlines come in the order sent. The gateway's direct bubbles
/// (``DirectBubbles``) and heraldd's own (``BubbleSends``) each count theirs here.
package struct SendsInFlight<Key: Hashable & Sendable>: Sendable {
    package let lateAfter: Duration
    /// The number of each key's send in flight.
    private var numbers: [Key: Int] = [:]
    /// When each send becomes late, in the order sent, from `first`: the one at `first` is
    /// in flight, and those after it that are not any more are passed over when reached.
    private var deadlines: [(key: Key, number: Int, at: ContinuousClock.Instant)] = []
    private var first = 0

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
        while first < deadlines.count, deadlines[first].at <= now {
            let (key, number, _) = deadlines[first]
            if numbers[key] == number {
                numbers[key] = nil
                late.append(key)
            }
            first += 1
        }
        passOver()
        return late
    }

    /// Milliseconds until the next send in flight is late, for poll; -1 with none.
    package func pollTimeoutMilliseconds(now: ContinuousClock.Instant) -> Int32 {
        guard first < deadlines.count else { return -1 }
        return deadlines[first].at.pollTimeoutMilliseconds(from: now)
    }

    /// Nothing is in flight any more.
    package mutating func removeAll() {
        self = SendsInFlight(lateAfter: lateAfter)
    }

    /// Moves `first` past the sends no longer in flight, and drops those passed over once
    /// they are most of the array.
    private mutating func passOver() {
        while first < deadlines.count, numbers[deadlines[first].key] != deadlines[first].number { first += 1 }
        if first > 1024, first * 2 > deadlines.count {
            deadlines.removeFirst(first)
            first = 0
        }
    }
}
