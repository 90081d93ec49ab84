import Foundation
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The change log's size bound against the real binary: with periodic snapshots an hour
/// apart, the log asks for the snapshot that compacts it once it passes twice the last
/// snapshot's size (1 MiB at least), so its files stay near that however many changes come.
@Suite("Change log size bound, end to end", .serialized)
struct ChangeLogBoundEndToEndTests {
    typealias Kill = ChangeLogKillEndToEndTests

    /// A Focus with many allowed apps: a large record for a change that does not grow the state.
    static func setFocus(_ name: String, id: Int) -> String {
        let apps = (0..<40).map { #""org.example.allowed-app-number-\#($0)-\#(name)""# }.joined(separator: ",")
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"set-focus","params":{"focus":{"name":"\#(name)","allowedPeople":[],"allowedApps":[\#(apps)]}}}"#
            + "\n"
    }

    /// A donation whose sender and conversation have names of 400 letters each: the state,
    /// and its snapshot, grow by about as much (a message's text is not kept).
    static func donation(_ identifier: String, id: Int, random: inout SeededRandom) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz ")
        let name = String((0..<400).map { _ in letters.randomElement(using: &random)! })
        let conversation = String((0..<400).map { _ in letters.randomElement(using: &random)! })
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"donate","params":{"app":"org.example.chat","interaction":{"identifier":"\#(identifier)","direction":"incoming","intent":{"type":"sendMessage","sender":{"displayName":"\#(name)"},"conversationIdentifier":"\#(conversation)","content":"Lunch?"}}}}"#
            + "\n"
    }

    /// Sends `requests` pipelined on one connection, 16 at a time; returns the ids answered
    /// with a result (read with Foundation's parser).
    static func send(_ client: UnixSocketClient, _ requests: [String]) throws -> [Int] {
        var answered: [Int] = []
        var sent = 0
        while sent < requests.count {
            let window = min(16, requests.count - sent)
            try client.send(requests[sent..<sent + window].joined())
            for _ in 0..<window {
                let line = try #require(try client.readLine(timeout: 20))
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if object["result"] != nil, let id = object["id"] as? Int { answered.append(id) }
            }
            sent += window
        }
        return answered
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test("Snapshots an hour apart: the log's files stay within twice the last snapshot (1 MiB at least); nothing is lost")
    func logStaysBounded() throws {
        let folder = Kill.StateFolder()
        let floor = 1 << 20
        var acknowledged: [String] = []
        var samples: [(log: Int, snapshot: Int)] = []
        var logged = 0
        var random = SeededRandom(seed: 44)
        do {
            let herald = try folder.start(["--snapshot-interval", "3600"])
            let client = try herald.connect()
            func sample() {
                let log = folder.segments().reduce(0) { $0 + Self.size(folder.path + "/" + $1) }
                samples.append((log, Self.size(folder.path + "/state.snapshot")))
            }
            // Donations grow the state (and the snapshot, so the bound rises past its floor);
            // Focus changes then grow the log alone.
            for batch in 0..<10 {
                let identifiers = (0..<150).map { "b\(batch)n\($0)" }
                let answered = try Self.send(client, identifiers.enumerated().map { Self.donation($1, id: $0, random: &random) })
                acknowledged += answered.map { identifiers[$0] }
                sample()
            }
            for _ in 0..<40 {
                let changes = (0..<200).map { Self.setFocus($0 % 2 == 0 ? "Work" : "Home", id: $0) }
                #expect(try Self.send(client, changes).count == 200)
                sample()
            }
            let stats = try client.call("stats")
            logged = try #require(stats[pointer: "/result/changeLog/bytes"]?.numberValue?.intValue)
            let compactions = try #require(stats[pointer: "/result/changeLog/compactions"]?.numberValue?.intValue)
            #expect(compactions >= 2, "\(stats)")
            #expect(stats[pointer: "/result/changeLog/compactAtBytes"]?.numberValue?.intValue ?? 0 >= floor, "\(stats)")
            // Without the bound nothing would have been compacted: all of it would be on disk.
            #expect(logged > 3 * floor, "the test logged only \(logged) bytes")
            herald.stop(signal: SIGKILL)
        }
        // While a snapshot the log asked for is written, the segment before it stays until the
        // snapshot is durable: the files hold that segment (the bound) and what came since,
        // here at most a batch of 200 changes (360 KiB), a sixth of the bound.
        for (index, sample) in samples.enumerated() {
            let bound = max(floor, 2 * sample.snapshot)
            #expect(
                sample.log <= bound + bound / 2, "sample \(index): the log's files hold \(sample.log) bytes, past 1.5 × the bound \(bound)")
        }
        #expect(samples.last.map { 2 * $0.snapshot > floor } == true, "the bound rose past its floor: \(samples.last!)")
        let largest = samples.map { Double($0.log) / Double(max(floor, 2 * $0.snapshot)) }.max() ?? 0
        print(
            "logStaysBounded: \(logged) bytes logged, \(samples.count) samples; the log's files at most \(String(format: "%.2f", largest))× the bound; snapshot \(samples.last?.snapshot ?? 0) bytes"
        )
        // The bound a restart starts from counts the snapshot it loads: were that snapshot's
        // size read as 0, the bound would sit at its floor and every MiB logged would ask for
        // a snapshot of the whole state.
        let loaded = Self.size(folder.path + "/state.snapshot")
        let herald = try folder.start()
        let restarted = try herald.connect().call("stats")
        let compactAt = try #require(restarted[pointer: "/result/changeLog/compactAtBytes"]?.numberValue?.intValue)
        #expect(compactAt > floor, "\(restarted)")
        if restarted[pointer: "/result/changeLog/compactions"]?.numberValue?.intValue == 0 {
            #expect(compactAt == 2 * loaded, "the bound after a restart onto a snapshot of \(loaded) bytes: \(restarted)")
        }
        #expect(acknowledged.count == 1500)
        #expect(try Kill.missing(acknowledged, in: herald).isEmpty)
        let focus = try herald.connect().call("get-focus")
        #expect("\(focus)".contains("Home"), "the last Focus change survives: \(focus)")
    }
}
