import NIOCore

/// A connection's two timers: `--read-timeout`, armed while part of a request is held, and
/// the stall check, armed while the connection is paused for back-pressure.
struct ConnectionTimers {
    private var readTimeout: Scheduled<Void>?
    private var stallCheck: Scheduled<Void>?

    mutating func armReadTimeout(in delay: TimeAmount, on eventLoop: any EventLoop, _ fire: @escaping () -> Void) {
        disarmReadTimeout()
        readTimeout = eventLoop.scheduleTask(in: delay, fire)
    }

    mutating func disarmReadTimeout() {
        readTimeout?.cancel()
        readTimeout = nil
    }

    mutating func armStallCheck(in delay: TimeAmount, on eventLoop: any EventLoop, _ fire: @escaping () -> Void) {
        stallCheck?.cancel()
        stallCheck = eventLoop.scheduleTask(in: delay, fire)
    }

    mutating func disarmStallCheck() {
        stallCheck?.cancel()
        stallCheck = nil
    }

    mutating func disarmAll() {
        disarmReadTimeout()
        disarmStallCheck()
    }
}
