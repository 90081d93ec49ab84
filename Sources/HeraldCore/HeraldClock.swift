import Foundation

/// The source of "now" for the rules, injected so that tests can set the time.
public protocol HeraldClock: Sendable {
    func now() -> Date
}

/// The wall clock.
public struct SystemClock: HeraldClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that tests move by hand.
public final class ManualClock: HeraldClock, @unchecked Sendable {
    private var current: Date
    private let lock = NSLock()

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.current = start
    }

    public func now() -> Date {
        lock.withLock { current }
    }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current += seconds }
    }

    public func set(_ date: Date) {
        lock.withLock { current = date }
    }
}
