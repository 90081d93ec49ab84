/// Whether heraldd is wedged: its state's lock held past a bound that no request's hold
/// comes near (the longest steps hold it milliseconds). The watchdog stops pinging then, so
/// that systemd restarts a daemon that would otherwise answer nobody and keep pinging (issue
/// 49: a 225 s hold left the watchdog pinging throughout).
package struct StateLockWatch: Sendable {
    /// A third of the unit's `WatchdogSec=30`: systemd restarts heraldd within about 40 s
    /// of the hold's start.
    package static let defaultBound: Duration = .seconds(10)

    let state: SharedState
    package let bound: Duration

    package init(state: SharedState, bound: Duration = Self.defaultBound) {
        self.state = state
        self.bound = bound
    }

    /// How long the state's lock has been held by its current holder.
    package var heldFor: Duration { state.heldFor }

    /// Whether the lock has been held past ``bound``.
    package var isWedged: Bool { heldFor > bound }
}
