import CSystemd

/// Tells systemd how heraldd is doing, through `sd_notify` (the unit has `Type=notify`).
///
/// Every call is a no-op when `NOTIFY_SOCKET` is unset, as when heraldd runs in a terminal
/// or under a test. The environment is left set, so that the watchdog keeps working.
package struct ServiceNotifier: Sendable {
    package init() {}

    /// `READY=1`: the socket is served; systemd finishes starting the unit.
    @discardableResult
    package func ready(status: String? = nil) -> Bool {
        send("READY=1" + (status.map { "\nSTATUS=" + Self.oneLine($0) } ?? ""))
    }

    /// `STATUS=`: a line `systemctl status herald` shows. Newlines become spaces.
    @discardableResult
    package func status(_ line: String) -> Bool {
        send("STATUS=" + Self.oneLine(line))
    }

    /// `STOPPING=1`: heraldd has begun to shut down.
    @discardableResult
    package func stopping() -> Bool {
        send("STOPPING=1")
    }

    /// `WATCHDOG=1`: heraldd is alive; send it at half of ``watchdogInterval()``.
    @discardableResult
    package func watchdog() -> Bool {
        send("WATCHDOG=1")
    }

    /// The unit's `WatchdogSec=` when systemd expects ``watchdog()`` pings from this
    /// process, else nil. Ping at half of it.
    package static func watchdogInterval() -> Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    /// Sends `state`; true if systemd was told, false if there is no one to tell or it failed.
    private func send(_ state: String) -> Bool {
        sd_notify(0, state) > 0
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
