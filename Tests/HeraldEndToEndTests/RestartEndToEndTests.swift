import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 11, item 7: with the socket held as systemd holds it, restarts drop nothing.
@Suite("Restarts under load, end to end")
struct RestartEndToEndTests {
    /// What the client load saw, shared with the thread that makes it.
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var answeredCount = 0
        private var failureList: [String] = []
        private var stopped = false

        var answered: Int { lock.withLock { answeredCount } }
        var failures: [String] { lock.withLock { failureList } }
        var isStopped: Bool { lock.withLock { stopped } }
        func recordAnswer() { lock.withLock { answeredCount += 1 } }
        func recordFailure(_ failure: String) { lock.withLock { failureList.append(failure) } }
        func stop() { lock.withLock { stopped = true } }
    }

    @Test("Sequential requests on fresh connections across five SIGTERM restarts: none fails")
    func restartsDropNothing() throws {
        let held = try HeldSocket(backlog: 4096)
        var daemon = try held.startDaemon()
        #expect(try held.connect().call("stats")[pointer: "/result"] != nil)

        let tally = Tally()
        let path = held.socketPath
        let load = Thread {
            var number = 0
            while !tally.isStopped {
                number += 1
                do {
                    let client = try UnixSocketClient(path: path)
                    let response = try client.call("stats", id: .number(JSONNumber(number)))
                    if response[pointer: "/id"] == .number(JSONNumber(number)), response[pointer: "/result"] != nil {
                        tally.recordAnswer()
                    } else {
                        tally.recordFailure("request \(number): answered \(response.compactText)")
                    }
                } catch {
                    tally.recordFailure("request \(number): \(error)")
                }
            }
        }
        load.start()

        for restart in 1...5 {
            let before = tally.answered
            // Let some requests through before each restart.
            let deadline = Date().addingTimeInterval(20)
            while tally.answered < before + 50, Date() < deadline { usleep(10_000) }
            daemon.signal(SIGTERM)
            let status = daemon.waitForExit(timeout: 30)
            #expect(status == 0, "restart \(restart): heraldd exited with \(String(describing: status))")
            daemon = try held.startDaemon()
        }
        let last = tally.answered
        let deadline = Date().addingTimeInterval(20)
        while tally.answered < last + 50, Date() < deadline { usleep(10_000) }
        tally.stop()
        while !load.isFinished { usleep(10_000) }
        daemon.signal(SIGTERM)
        _ = daemon.waitForExit(timeout: 30)

        let failures = tally.failures
        print("restarts: 5, requests answered: \(tally.answered), failed: \(failures.count) \(failures.prefix(5))")
        #expect(failures.isEmpty)
        #expect(tally.answered > 300)
    }
}
