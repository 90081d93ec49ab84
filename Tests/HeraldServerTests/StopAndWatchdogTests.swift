import Dispatch
import Foundation
import HeraldCore
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import HeraldServer

/// Issue 49: a stop is bounded whatever runs, and a lock held past a bound shows as a
/// wedged daemon, for the watchdog to stop pinging.
@Suite struct StopAndWatchdogTests {
    @Test func aLockHeldPastTheBoundIsWedgedAndFreeAgainAfter() throws {
        let shared = SharedState(HeraldState())
        let watch = StateLockWatch(state: shared, bound: .milliseconds(50))
        #expect(!watch.isWedged && watch.heldFor == .zero)
        let release = DispatchSemaphore(value: 0)
        let taken = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            shared.withLock { _ in
                taken.signal()
                release.wait()
            }
            done.signal()
        }.start()
        taken.wait()
        var wedged = false
        for _ in 0..<500 where !wedged {
            Thread.sleep(forTimeInterval: 0.01)
            wedged = watch.isWedged
        }
        #expect(wedged, "held past 50 ms")
        release.signal()
        done.wait()
        #expect(!watch.isWedged && watch.heldFor == .zero)
    }

    final class Flag: Sendable {
        let value = Atomic(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    /// A service that ignores the shutdown until the deadline has expired: a wedged stop.
    struct Stuck: Service {
        let expired: Flag
        func run() async throws {
            while !expired.value.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(10)) }
        }
    }

    @Test func aStopThatHangsIsEndedByTheDeadline() async throws {
        let expired = Flag()
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: Stuck(expired: expired)),
                    .init(service: StopDeadline(bound: .milliseconds(100)) { expired.value.store(true, ordering: .relaxed) }, successTerminationBehavior: .ignore),
                ],
                logger: Logger(label: "test")
            )
        )
        async let running: Void = group.run()
        try await Task.sleep(for: .milliseconds(50))
        #expect(!expired.isSet, "no deadline before a stop")
        await group.triggerGracefulShutdown()
        try await running
        #expect(expired.isSet, "the deadline ended the stop")
    }
}
