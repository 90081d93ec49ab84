import HeraldSystemd
import ServiceLifecycle

/// Runs a ``ClockStepWatch`` while the daemon serves: a step of the wall clock rings the
/// alarm (`onStep`), so that wall-clock deadlines keep their time.
struct ClockStepService: Service {
    let onStep: @Sendable () -> Void

    func run() async throws {
        guard let watch = ClockStepWatch(onStep: onStep) else { return }
        watch.start()
        try? await gracefulShutdown()
        watch.stop()
    }
}
