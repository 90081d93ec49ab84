import Dispatch
import Foundation
import HeraldCore
import HeraldProtocol
import HeraldSystemd
import HeraldTesting
import Logging
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// Results into a ``JournalWriter`` whose backend the test slows, with the writer's queue
/// as the server's back-pressure (as heraldd wires it).
private struct SlowJournalRecorder: ResultRecorder {
    struct Record: JournalRecord {
        let method: String
        func journalEntry() -> JournalEntry {
            var entry = JournalEntry()
            try? entry.append(name: "MESSAGE", value: method)
            return entry
        }
    }

    struct Pressure: IntakePressure {
        let writer: JournalWriter
        var isHigh: Bool { writer.isCongested }
        func resumeWhenLow(_ resume: @escaping @Sendable () -> Void) -> Bool { writer.resumeWhenRelieved(resume) }
        func releaseIfStalled() -> Bool { writer.releaseIfStalled() }
    }

    let writer: JournalWriter
    func record(_ result: ResultRecord) { writer.submit(Record(method: result.method ?? "-")) }
    var pressure: (any IntakePressure)? { Pressure(writer: writer) }
}

@Suite("Journal back-pressure: a flood against a slow journal, in process over a Unix socket")
struct JournalBackPressureServerTests {
    static let executor = DedicatedExecutor(label: "herald-back-pressure-tests")

    @Test("A flood with a slow journal loses no entry and answers every request")
    func floodLosesNothing() async throws {
        // About 3,000 entries a second: far slower than the server answers, even in debug.
        let written = NIOLockedValueBox(0)
        let writer = JournalWriter(
            backend: JournalBackend { batch in
                usleep(UInt32(300 * batch.count))
                written.withLockedValue { $0 += batch.count }
                return 0
            },
            capacity: 256
        )
        defer { writer.shutdown() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bp-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socketPath = folder.appendingPathComponent("herald.sock").path

        let environment = MethodEnvironment.empty(statistics: ServerStatistics())
        let ready = NIOLockedValueBox(false)
        let server = HeraldServer(
            configuration: ServerConfiguration(listening: .path(socketPath, mode: 0o600), threads: 2),
            environment: environment,
            recorder: SlowJournalRecorder(writer: writer),
            logger: Logger(label: "test"),
            onReady: { _ in ready.withLockedValue { $0 = true } }
        )
        // The server's task off the cooperative pool, which the end-to-end tests beside
        // this one can keep busy for minutes.
        let serving = Task(executorPreference: Self.executor) { try await server.run() }
        defer { serving.cancel() }
        #expect(try await Self.eventually(within: .seconds(60)) { ready.withLockedValue { $0 } })

        let connections = 4
        let perConnection = 2_000
        let answered = NIOLockedValueBox(0)
        let failures = NIOLockedValueBox<[String]>([])
        let done = NIOLockedValueBox(0)
        for connection in 0..<connections {
            // Used by the reading closure alone; the sending one writes to its descriptor.
            nonisolated(unsafe) let client = try UnixSocketClient(path: socketPath)
            let fd = client.fd
            let requests = (0..<perConnection).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"no-such-method-\#(connection)"}"# + "\n" }
            // The client sends everything at once and reads meanwhile, as a flood does; on
            // threads of their own, as both block (the global queue runs only as many
            // blocking items at once as there are cores).
            Self.onThread(group: done) {
                let bytes = Array(requests.joined().utf8)
                var offset = 0
                while offset < bytes.count {
                    let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard sent > 0 else { return failures.withLockedValue { $0.append("send: errno \(errno)") } }
                    offset += sent
                }
            }
            Self.onThread(group: done) {
                do {
                    for _ in 0..<perConnection {
                        guard try client.readLine(timeout: 60) != nil else { break }
                        answered.withLockedValue { $0 += 1 }
                    }
                } catch {
                    failures.withLockedValue { $0.append("\(error)") }
                }
            }
        }
        #expect(try await Self.eventually(within: .seconds(180)) { done.withLockedValue { $0 } == 2 * connections })
        #expect(failures.withLockedValue { $0 }.isEmpty)
        #expect(answered.withLockedValue { $0 } == connections * perConnection)
        #expect(writer.flush(timeout: .seconds(30)))
        let counters = writer.counters
        print("slow journal: \(counters.written) written, \(counters.dropped) dropped")
        #expect(counters.dropped == 0)
        #expect(counters.written == UInt64(connections * perConnection))
        #expect(written.withLockedValue { $0 } == connections * perConnection)
    }

    private static func onThread(group done: NIOLockedValueBox<Int>, _ body: @escaping @Sendable () -> Void) {
        Thread {
            body()
            done.withLockedValue { $0 += 1 }
        }.start()
    }

    /// Whether `condition` became true within `limit`, checked every 10 ms.
    private static func eventually(within limit: Duration, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
