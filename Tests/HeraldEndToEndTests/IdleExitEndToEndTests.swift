import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 46, item 4: `--exit-idle-time` exits when idle, and the socket, held as systemd
/// holds it, brings heraldd back with its state on the next connection.
@Suite("Exit when idle, end to end")
struct IdleExitEndToEndTests {
    static let arguments = ["--exit-idle-time", "1", "--log-target", "console"]
    static let exiting = "heraldd exiting: no connection for 1 s"

    /// How many idle exits the daemons started on `held` wrote.
    static func idleExits(_ held: HeldSocket) -> Int {
        held.stderr.components(separatedBy: exiting).count - 1
    }

    @Test("Idle: snapshot and exit 0; a connection queued while none runs is answered by the next start, state intact")
    func exitsAndComesBack() throws {
        let held = try HeldSocket()
        let first = try held.startDaemon(arguments: Self.arguments)
        do {
            let client = try held.connect()
            for identifier in ["m1", "m2"] { try client.result("donate", SnapshotEndToEndTests.message(identifier)) }
            try client.result("set-focus", ["focus": ["name": "Work"]])
        }
        #expect(first.waitForExit(timeout: 60) == 0, "\(held.stderr)")
        #expect(Self.idleExits(held) == 1, "\(held.stderr)")

        // No heraldd runs: the connection and its request wait in the socket's backlog.
        let queued = try held.connect()
        try queued.send(#"{"jsonrpc":"2.0","id":7,"method":"stats"}"# + "\n")
        let second = try held.startDaemon(arguments: Self.arguments)
        let answer = try #require(try queued.readJSON(timeout: 60))
        #expect(answer[pointer: "/id"] == 7 && answer[pointer: "/result/interactions"] == 2, "\(answer.compactText)")
        #expect(try queued.result("get-focus")[pointer: "/active/name"] == "Work")
        #expect(try queued.call("update-content", SnapshotEndToEndTests.update("m2"))[pointer: "/result"] != nil)
        queued.shutdownWrite()
        #expect(try queued.waitForClose())
        #expect(second.waitForExit(timeout: 60) == 0, "\(held.stderr)")
        #expect(Self.idleExits(held) == 2, "\(held.stderr)")
    }

    @Test("An open connection, and a Focus hold on one, keep heraldd past the idle time; the last close lets it exit")
    func connectionsKeepItRunning() throws {
        let held = try HeldSocket()
        let daemon = try held.startDaemon(arguments: Self.arguments)
        var client: UnixSocketClient? = try held.connect()
        try client!.result("define-focus", ["focus": ["name": "Presenting"]])
        let holder = try held.connect()
        try holder.result("hold-focus", ["name": "Presenting"])
        // Three idle times with the holder's connection open.
        sleep(3)
        #expect(daemon.isRunning && Self.idleExits(held) == 0, "\(held.stderr)")
        client = nil
        sleep(3)
        #expect(daemon.isRunning && Self.idleExits(held) == 0, "\(held.stderr)")
        #expect(try holder.result("get-focus")[pointer: "/active/name"] == "Presenting")

        holder.shutdownWrite()
        #expect(try holder.waitForClose())
        #expect(daemon.waitForExit(timeout: 60) == 0, "\(held.stderr)")
        #expect(Self.idleExits(held) == 1, "\(held.stderr)")
        // The hold ended with its connection, and the Focus with it.
        let next = try held.startDaemon(arguments: Self.arguments)
        defer { next.signal(SIGKILL) }
        let read = try held.connect().result("get-focus")
        #expect(read[pointer: "/active"] == .null && read[pointer: "/holds"] == nil, "\(read.compactText)")
    }

    @Test("A Focus end due after heraldd exited is done by the next start before its first answer")
    func dueWhileStoppedIsDoneBeforeAnswering() throws {
        let held = try HeldSocket()
        let daemon = try held.startDaemon(arguments: Self.arguments)
        let until = Date().addingTimeInterval(4)
        do {
            let client = try held.connect()
            let formatted = ISO8601DateFormatter().string(from: until)
            try client.result("set-focus", ["focus": ["name": "Meeting", "until": .string(formatted)]])
            #expect(try client.result("get-focus")[pointer: "/active/name"] == "Meeting")
        }
        #expect(daemon.waitForExit(timeout: 60) == 0, "\(held.stderr)")
        #expect(Self.idleExits(held) == 1, "\(held.stderr)")
        // Past the Focus's end, whether heraldd waited for it (a slow start) or not.
        while Date() < until.addingTimeInterval(1) { usleep(100_000) }
        let queued = try held.connect()
        try queued.send(#"{"jsonrpc":"2.0","id":1,"method":"get-focus"}"# + "\n")
        let next = try held.startDaemon(arguments: Self.arguments)
        defer { next.signal(SIGKILL) }
        let answer = try #require(try queued.readJSON(timeout: 60))
        #expect(answer[pointer: "/result/active"] == .null, "\(answer.compactText)")
    }
}
