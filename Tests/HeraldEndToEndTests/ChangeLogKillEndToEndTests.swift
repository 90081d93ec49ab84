import Foundation
import HeraldSystemd
import HeraldTesting
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The change log against the real binary and SIGKILL: what heraldd acknowledged is there
/// after the restart, in the default `--durability log-everysec`. The power cut (QEMU killed,
/// the disk image kept) is scripts/vm-test.sh's.
private struct CheckFailure: Error {}

@Suite("Change log, end to end", .serialized)
struct ChangeLogKillEndToEndTests {
    /// A state folder that outlives the daemons of one test.
    final class StateFolder: Sendable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("herald-e2e-\(UUID().uuidString.prefix(8))")
        var path: String { root.appendingPathComponent("state").path }

        deinit { try? FileManager.default.removeItem(at: root) }

        func start(_ arguments: [String] = []) throws -> HeraldProcess {
            try HeraldProcess(.standalone, arguments: ["--state-dir", path, "--log-target", "console"] + arguments)
        }

        /// Starts a heraldd with `arguments` and no periodic snapshot, has `count` donations
        /// (`<prefix>n0`…) acknowledged, and kills it with SIGKILL.
        func donateThenKill(prefix: String, count: Int, window: Int = 4, _ arguments: [String] = []) throws {
            let herald = try start(["--snapshot-interval", "0"] + arguments)
            #expect(ChangeLogKillEndToEndTests.load(socket: herald.socketPath, prefix: prefix, window: window, limit: count).count == count)
            herald.stop(signal: SIGKILL)
        }

        func segments() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("changes.") }.sorted()
        }
    }

    static func donation(_ identifier: String, id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"donate","params":{"app":"org.example.chat","interaction":{"identifier":"\#(identifier)","direction":"incoming","intent":{"type":"sendMessage","sender":{"displayName":"Ann"},"conversationIdentifier":"c1"}}}}"#
            + "\n"
    }

    /// Donates over one connection, `window` requests in flight, until the daemon dies or
    /// `limit` are answered; returns the identifiers acknowledged (a result, read with
    /// Foundation's parser).
    static func load(socket: String, prefix: String, window: Int, limit: Int) -> [String] {
        guard let client = try? UnixSocketClient(path: socket) else { return [] }
        var acknowledged: [String] = []
        var sent = 0
        while sent < limit {
            let batch = (sent..<min(limit, sent + window)).map { index in donation("\(prefix)n\(index)", id: index) }.joined()
            guard (try? client.send(batch)) != nil else { return acknowledged }
            let count = min(limit, sent + window) - sent
            for _ in 0..<count {
                guard let line = try? client.readLine(timeout: 10), let data = line.data(using: .utf8),
                    let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                    let id = object["id"] as? Int
                else { return acknowledged }
                if object["result"] != nil { acknowledged.append("\(prefix)n\(id)") }
            }
            sent += count
        }
        return acknowledged
    }

    /// Which of `identifiers` are not stored: `update-content` answers 1001 for those, many
    /// pipelined on one connection.
    static func missing(_ identifiers: [String], in herald: HeraldProcess) throws -> [String] {
        let client = try herald.connect()
        var missing: [String] = []
        var start = 0
        while start < identifiers.count {
            let chunk = Array(identifiers[start..<min(identifiers.count, start + 256)])
            let lines = chunk.enumerated().map { index, identifier in
                #"{"jsonrpc":"2.0","id":\#(index),"method":"update-content","params":{"app":"org.example.chat","interactionIdentifier":"\#(identifier)","content":{"body":"Lunch?"}}}"#
                    + "\n"
            }
            try client.send(lines.joined())
            for _ in chunk {
                guard let line = try client.readLine(timeout: 20), let data = line.data(using: .utf8),
                    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let id = object["id"] as? Int
                else { throw CheckFailure() }
                if let error = object["error"] as? [String: Any], error["code"] as? Int == 1001 { missing.append(chunk[id]) }
            }
            start += chunk.count
        }
        return missing
    }

    @Test("16 pipelining connections, SIGKILL at seeded random moments: every acknowledged donation survives")
    func killNine() throws {
        var random = SeededRandom(for: "ChangeLogKillEndToEndTests.killNine")
        let folder = StateFolder()
        let kills = Int(ProcessInfo.processInfo.environment["HERALD_KILLS"] ?? "") ?? 50
        var acknowledged: [String] = []
        let began = Date()
        for round in 0..<kills {
            // A snapshot every quarter second: some kills fall while a segment begins or the
            // old one is removed, and most rounds compact what the rounds before left.
            let herald = try folder.start(["--snapshot-interval", "0.25"])
            let socket = herald.socketPath
            let answered = Mutex<[String]>([])
            let group = DispatchGroup()
            for connection in 0..<16 {
                group.enter()
                let thread = Thread {
                    let got = Self.load(socket: socket, prefix: "r\(round)c\(connection)", window: 16, limit: 64)
                    answered.withLock { $0.append(contentsOf: got) }
                    group.leave()
                }
                thread.start()
            }
            usleep(UInt32.random(in: 20_000...600_000, using: &random))
            herald.stop(signal: SIGKILL)
            #expect(group.wait(timeout: .now() + 30) == .success, "the clients ended once heraldd was killed")
            acknowledged += answered.withLock { $0 }
        }
        let herald = try folder.start()
        let missing = try Self.missing(acknowledged, in: herald)
        #expect(missing.isEmpty, "lost \(missing.count) of \(acknowledged.count) acknowledged donations, such as \(missing.prefix(5))")
        #expect(acknowledged.count > kills * 16, "the load was answered: \(acknowledged.count) in \(kills) rounds")
        print(
            "killNine: \(kills) kills, \(acknowledged.count) acknowledged donations, \(missing.count) lost, \(String(format: "%.1f", Date().timeIntervalSince(began))) s; segments left: \(folder.segments())"
        )
    }

    @Test("--durability snapshot keeps no change log: a kill -9 loses what came after the last snapshot")
    func snapshotMode() throws {
        let folder = StateFolder()
        try folder.donateThenKill(prefix: "s", count: 8, ["--durability", "snapshot"])
        #expect(folder.segments().isEmpty)
        let herald = try folder.start(["--durability", "snapshot"])
        #expect(try Self.missing(["sn0", "sn7"], in: herald) == ["sn0", "sn7"])
    }

    @Test("--durability log: acknowledged changes survive a kill, and a clean stop compacts the log")
    func logMode() throws {
        let folder = StateFolder()
        do {
            let herald = try folder.start(["--durability", "log", "--snapshot-interval", "0"])
            #expect(Self.load(socket: herald.socketPath, prefix: "l", window: 8, limit: 64).count == 64)
            let stats = try herald.connect().call("stats")
            #expect(stats[pointer: "/result/changeLog/durability"] == "log", "\(stats)")
            herald.stop(signal: SIGKILL)
        }
        let herald = try folder.start(["--durability", "log", "--snapshot-interval", "0"])
        #expect(try Self.missing((0..<64).map { "ln\($0)" }, in: herald).isEmpty)
        #expect(herald.stderr.contains("replayed 64 changes from the change log"), "\(herald.stderr)")
        #expect(herald.stderr.contains("message_id=\(JournalMessageID.changeLogReplayed)"), "\(herald.stderr)")
        #expect(herald.stop() == 0)
        // The final snapshot holds everything: one empty segment after it is all that is left.
        #expect(folder.segments().count == 1, "\(folder.segments())")
        let again = try folder.start(["--durability", "log"])
        #expect(try Self.missing(["ln0", "ln63"], in: again).isEmpty)
        #expect(!again.stderr.contains("replayed"), "\(again.stderr)")
    }

    @Test("A log left by a heraldd with one is replayed by a start under --durability snapshot, then compacted away")
    func switchedToSnapshot() throws {
        let folder = StateFolder()
        try folder.donateThenKill(prefix: "w", count: 8)
        #expect(!folder.segments().isEmpty)
        let herald = try folder.start(["--durability", "snapshot"])
        #expect(try Self.missing((0..<8).map { "wn\($0)" }, in: herald).isEmpty)
        #expect(herald.stderr.contains("replayed 8 changes"), "\(herald.stderr)")
        // The snapshot at start holds what was replayed: no segment is left to replay twice.
        #expect(folder.segments().isEmpty, "\(folder.segments())")
    }

    @Test("A torn last record is dropped, never applied, and the start says so")
    func tornTail() throws {
        let folder = StateFolder()
        try folder.donateThenKill(prefix: "t", count: 3, window: 1)
        let segment = try #require(folder.segments().last)
        let path = folder.path + "/" + segment
        let whole = try Heraldctl.run(["inspect-snapshot", path])
        #expect(whole.status == 0 && whole.stdout.contains("records:      3") && whole.stdout.contains("donate"), "\(whole)")
        let records = try Heraldctl.run(["inspect-snapshot", "--json", path]).jsonLines
        #expect(records.compactMap { ($0 as? [String: Any])?["method"] as? String } == ["donate", "donate", "donate"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - 5)) == 0)
        let torn = try Heraldctl.run(["inspect-snapshot", path])
        #expect(torn.status == 1 && torn.stdout.contains("records:      2") && torn.stdout.contains("is torn"), "\(torn)")
        let herald = try folder.start()
        #expect(try Self.missing(["tn0", "tn1", "tn2"], in: herald) == ["tn2"])
        #expect(herald.stderr.contains("replayed 2 changes from the change log"), "\(herald.stderr)")
        #expect(herald.stderr.contains("is torn"), "\(herald.stderr)")
    }
}
