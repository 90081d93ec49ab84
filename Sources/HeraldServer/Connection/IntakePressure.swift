/// Back-pressure from what a request's results feed (in `heraldd`, the journal writer's
/// queue): while it is high, connections answer nothing more and stop reading.
///
/// Nothing here waits: a connection that finds the pressure high registers a `resume` and
/// returns to its event loop; `resume` hops back to that loop when the pressure is low.
package protocol IntakePressure: Sendable {
    /// Whether connections should pause now. Asked before every request: must be cheap.
    var isHigh: Bool { get }
    /// Calls `resume` (on any thread) once the pressure is low again, and returns true;
    /// returns false, without calling it, when the pressure is low already.
    func resumeWhenLow(_ resume: @escaping @Sendable () -> Void) -> Bool
    /// Gives up the pause when the consumer has made no progress for long (it is stuck, and
    /// its bounded queue will drop and count instead); true when the pressure is low (now).
    /// A paused connection asks now and then.
    func releaseIfStalled() -> Bool
}
