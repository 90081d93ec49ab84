/// The delays between attempts to reach heraldd: doubling from ``first`` to ``longest``,
/// back to ``first`` once a connection is subscribed.
struct Backoff {
    static let first: Duration = .milliseconds(100)
    static let longest: Duration = .seconds(5)

    private(set) var next: Duration = Backoff.first

    /// The delay before the next attempt, lengthening the one after.
    mutating func take() -> Duration {
        let delay = next
        next = min(next * 2, Self.longest)
        return delay
    }

    mutating func reset() { next = Self.first }
}
