import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 11, items 2 and 3: one uid cannot take every connection slot, and idle
/// connections time out (a focus-changed subscriber excepted).
@Suite("Connection limits per uid and idle timeout, end to end")
struct ConnectionLimitsEndToEndTests {
    /// `setpriv` arguments that run a command as `uid` (its own group, no others).
    private func asUID(_ uid: Int) -> [String] {
        ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
    }

    /// Sends `request` as `uid` through socat and returns the response.
    private func call(_ request: String, asUID uid: Int, socket: String) throws -> JSONValue {
        let output = try runCapturingOutput(
            "/usr/bin/setpriv",
            asUID(uid) + ["/usr/bin/socat", "-t", "10", "-", "UNIX-CONNECT:\(socket)"],
            input: request + "\n"
        )
        return try IndependentJSON.parse(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits until `stats` (as root) satisfies `condition`, at most 20 s; returns the last stats.
    private func waitForStats(_ herald: HeraldProcess, until condition: (JSONValue) -> Bool) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let stats = try herald.connect().result("stats")
            if condition(stats) || Date() > deadline { return stats }
            usleep(50_000)
        }
    }

    @Test(
        "uid 65534 holding its limit of idle connections is refused one more; root and another uid still get answers",
        .enabled(if: getuid() == 0, "needs root to connect as other uids")
    )
    func perUIDLimit() throws {
        let limit = 4
        let herald = try HeraldProcess(.standalone, arguments: ["--socket-mode", "0666", "--max-connections-per-uid", "\(limit)"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        // Each holder connects as nobody and then sends nothing while `sleep` runs.
        let holders = try (0..<limit).map { _ in
            try ChildProcess(
                "/usr/bin/setpriv",
                asUID(65534) + ["/usr/bin/socat", "UNIX-CONNECT:\(herald.socketPath)", "SYSTEM:sleep 120"]
            )
        }
        defer { holders.forEach { $0.signal(SIGKILL) } }
        let held = try waitForStats(herald) { $0[pointer: "/connections/busiestUIDConnections"] == .number(JSONNumber(limit)) }
        #expect(held[pointer: "/connections/busiestUID"] == .number(JSONNumber(65534)))

        let refused = try call(#"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#, asUID: 65534, socket: herald.socketPath)
        #expect(refused[pointer: "/error/code"] == .number(JSONNumber(-32000)))
        #expect(refused[pointer: "/error/data/limit"] == .number(JSONNumber(limit)))
        #expect(refused[pointer: "/error/data/reason"]?.stringValue?.contains("uid 65534") == true)

        // Root (an administrator) and another uid are served as before.
        #expect(try herald.connect().call("stats")[pointer: "/result/connections/refusedUIDAtLimit"] == .number(JSONNumber(1)))
        let other = try call(#"{"jsonrpc":"2.0","id":2,"method":"rpc.discover"}"#, asUID: 65533, socket: herald.socketPath)
        #expect(other[pointer: "/result/openrpc"] != nil)
    }

    @Test("An idle connection is closed after --idle-timeout; a focus-changed subscriber is not")
    func idleTimeout() throws {
        let herald = try HeraldProcess(arguments: ["--idle-timeout", "1", "--focus-authorization", "allow"])
        let subscriber = try herald.connect()
        let subscribed = try subscriber.result(
            "request-focus", json(#"{"app":"org.example.chat","requestAuthorization":true,"subscribe":true}"#))
        #expect(subscribed[pointer: "/authorizationStatus"] == .string("authorized"))
        let idle = try herald.connect()
        _ = try idle.result("stats")
        #expect(try idle.waitForClose(timeout: 15))
        // Well past the timeout, the subscriber still hears its notification.
        try herald.connect().result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(try subscriber.readJSON()?[pointer: "/method"] == .string("focus-changed"))
        let stats = try herald.connect().result("stats")
        #expect(stats[pointer: "/connections/closedIdle"] == .number(JSONNumber(1)))
    }
}
