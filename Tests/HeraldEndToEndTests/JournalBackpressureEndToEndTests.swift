import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 10, item 5: submitting a result to the journal never blocks an event loop. With
/// the log target stuck (stderr a pipe nobody reads), a full queue drops and counts.
@Suite("Journal submission under a stuck log target, end to end")
struct JournalBackpressureEndToEndTests {
    /// `count` notifications to a method Herald does not have: each is a result for the
    /// journal, and none gets a response.
    private func notifications(_ count: Int) -> String {
        "[" + Array(repeating: #"{"jsonrpc":"2.0","method":"no-such-method"}"#, count: count).joined(separator: ",") + "]\n"
    }

    @Test("Past a full journal queue, results are dropped and counted at once, and requests are answered")
    func fullQueueDrops() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-stuck-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("stderr").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Held open and never read: once the pipe's 64 KiB are full, every write blocks.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let socketPath = folder.appendingPathComponent("herald.sock").path
        var environment = ProcessInfo.processInfo.environment
        environment["STATE_DIRECTORY"] = folder.appendingPathComponent("state").path
        for key in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"] { environment.removeValue(forKey: key) }
        let daemon = try ChildProcess(
            HeraldProcess.binaryPath,
            ["--socket", socketPath, "--log-target", "console"],
            environment: environment,
            standardError: fifo
        )
        defer {
            daemon.signal(SIGKILL)
            _ = daemon.waitForExit(timeout: 10)
        }
        let client = try UnixSocketClient(path: socketPath, timeout: 30)
        // 65,536 entries fill the queue; 70,000 more must be dropped, each at once (a wait
        // of 200 ms for room, as before, would take hours).
        let start = Date()
        for _ in 0..<136 {
            try client.send(notifications(1000))
        }
        try client.send(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"# + "\n")
        let stats = try #require(try client.readJSON(timeout: 60))
        let dropped = stats[pointer: "/result/journal/dropped"]?.numberValue?.intValue ?? 0
        let seconds = Date().timeIntervalSince(start)
        print("stuck log target: 136,000 results in \(seconds) s, \(dropped) dropped")
        #expect(dropped >= 60_000)
    }
}
