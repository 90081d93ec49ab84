/// A hybrid logical clock's reading: wall-clock milliseconds, and a counter for changes
/// within one millisecond or made while the wall clock lags a time already seen.
///
/// Changes to a person's Focus are ordered by (timestamp, host): the last writer wins on
/// every host alike, however far their wall clocks disagree (Kulkarni et al., "Logical
/// Physical Clocks", 2014).
package struct HybridTimestamp: Comparable, Hashable, Sendable {
    package var milliseconds: Int64
    package var counter: Int64

    package init(milliseconds: Int64, counter: Int64) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    package static let zero = HybridTimestamp(milliseconds: 0, counter: 0)

    package static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        (lhs.milliseconds, lhs.counter) < (rhs.milliseconds, rhs.counter)
    }
}

/// This host's hybrid logical clock: never goes back, and is always past every time seen.
package struct HybridLogicalClock {
    package private(set) var last = HybridTimestamp.zero

    package init() {}

    /// The time of a change made here, at wall-clock `now` (milliseconds since 1970).
    package mutating func tick(now: Int64) -> HybridTimestamp {
        if now > last.milliseconds {
            last = HybridTimestamp(milliseconds: now, counter: 0)
        } else {
            last.counter += 1
        }
        return last
    }

    /// Takes in a time another host sent, so that the next ``tick(now:)`` is after it.
    package mutating func witness(_ remote: HybridTimestamp, now: Int64) {
        let wall = max(last.milliseconds, remote.milliseconds, now)
        if wall == last.milliseconds, wall == remote.milliseconds {
            last.counter = max(last.counter, remote.counter)
        } else if wall == remote.milliseconds {
            last = remote
        } else if wall != last.milliseconds {
            last = HybridTimestamp(milliseconds: wall, counter: 0)
        }
    }
}
