import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 11, item 1: heraldd keeps the backlog it is handed, listens with a large one when
/// it binds by itself, and accepts in batches, so a burst of connects all succeed.
@Suite("Accepting bursts of connections, end to end")
struct AcceptBurstEndToEndTests {
    static let burst = 1000

    /// Opens `burst` non-blocking connections at once, then asks a question on each and
    /// expects every one answered.
    private func burstAllAnswered(_ path: String) throws {
        let (connected, failures) = connectBurst(to: path, count: Self.burst)
        let clients = connected.map { UnixSocketClient(adopting: $0) }
        print("burst of \(Self.burst) non-blocking connects: \(clients.count) connected, \(failures.count) failed \(Set(failures))")
        #expect(clients.count == Self.burst)
        for (index, client) in clients.enumerated() {
            try client.send(#"{"jsonrpc":"2.0","id":\#(index),"method":"stats"}"# + "\n")
        }
        var answered = 0
        for (index, client) in clients.enumerated() {
            let response = try client.readJSON(timeout: 30)
            if response?[pointer: "/id"] == .number(JSONNumber(index)), response?[pointer: "/result/connections"] != nil {
                answered += 1
            }
        }
        print("answered: \(answered) of \(clients.count)")
        #expect(answered == Self.burst)
    }

    @Test("Socket-activated: the handed backlog (4096) is kept, and 1,000 connects in a burst are all answered")
    func activated() throws {
        let held = try HeldSocket(backlog: 4096)
        let daemon = try held.startDaemon()
        defer {
            daemon.signal(SIGKILL)
            _ = daemon.waitForExit(timeout: 10)
        }
        // Answered once heraldd serves: by then NIO has listened again, and heraldd after it.
        #expect(try held.connect().call("stats")[pointer: "/result"] != nil)
        #expect(try listenBacklog(ofSocketAt: held.socketPath) == 4096)
        try burstAllAnswered(held.socketPath)
    }

    @Test("Bound by heraldd itself: 1,000 connects in a burst are all answered")
    func standalone() throws {
        let herald = try HeraldProcess(.standalone)
        #expect(try herald.connect().call("stats")[pointer: "/result"] != nil)
        #expect(try listenBacklog(ofSocketAt: herald.socketPath) == 4096)
        try burstAllAnswered(herald.socketPath)
    }
}
