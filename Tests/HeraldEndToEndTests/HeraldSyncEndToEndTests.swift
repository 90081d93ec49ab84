import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// herald-sync with real parts: a mosquitto broker with a password, two "hosts" (two
/// heraldd, each with its own socket and state, each with its own herald-sync, host names
/// A and B, one account), and a subscriber that reads every message the broker carried.
@Suite(.serialized, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.unavailableReason)))
struct HeraldSyncEndToEndTests {
    static let account = "ann"
    static let topic = "herald/\(account)/focus"

    /// The Focus on at a host (its `get-focus` `active.name`), or nil.
    static func activeFocus(_ herald: HeraldProcess) throws -> String? {
        let answer = try herald.connect().call("get-focus")
        return answer[pointer: "/result/active/name"]?.stringValue
    }

    /// Waits (at most 20 s) until the Focus on at `herald` is `expected`.
    static func waitForFocus(_ herald: HeraldProcess, _ expected: String?) throws -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try activeFocus(herald) == expected { return true }
            usleep(20_000)
        }
        return false
    }

    /// The subscriber's messages on the Focus topic, after a quiet second in which nothing
    /// more may arrive (a count, never a time, is asserted).
    static func focusMessages(after quiet: Double = 1, _ subscriber: MosquittoSubscriber) -> [String] {
        usleep(UInt32(quiet * 1_000_000))
        return subscriber.lines.filter { $0.hasPrefix("\(topic) ") }
    }

    @Test func focusFollowsThePersonBetweenHostsWithoutEchoOrContent() throws {
        let broker = try MosquittoBroker()
        let subscriber = try MosquittoSubscriber(broker, topic: "herald/#")
        #expect(try subscriber.waitUntilSubscribed(broker))

        let hostA = try HeraldProcess(.standalone)
        // B journals, to show that a change from A is journaled with A's name.
        let journal = JournalReader.isAvailable
        let hostB = try HeraldProcess(.standalone, arguments: journal ? ["--log-target", "journal"] : [])
        let syncA = try HeraldSyncProcess(broker: broker, socket: hostA.socketPath, account: Self.account, hostName: "A")
        let syncB = try HeraldSyncProcess(broker: broker, socket: hostB.socketPath, account: Self.account, hostName: "B")
        #expect(syncA.waitForLog(containing: "connected to the broker"), "\(syncA.stderr)")
        #expect(syncB.waitForLog(containing: "connected to the broker"), "\(syncB.stderr)")

        // A notification on A, whose title and body must never reach the broker.
        let posted = try hostA.connect().call(
            "update-content",
            json(#"{"app":"org.example.chat","identifier":"n-1","content":{"title":"Quince tart","body":"Meet at the jetty"}}"#)
        )
        #expect(posted[pointer: "/result"] != nil, "\(posted)")

        // On at A becomes on at B; off at B becomes off at A.
        let on = try hostA.connect().call("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(on[pointer: "/result"] != nil, "\(on)")
        #expect(try Self.waitForFocus(hostB, "Work"), "\(syncA.stderr)\n\(syncB.stderr)")
        // B says the Focus came from A, turned on by hand there: in get-focus, heraldctl
        // focus and its journal. A's own get-focus names no other host.
        let readAtB = try hostB.connect().call("get-focus")
        #expect(readAtB[pointer: "/result/origin/host"] == "A" && readAtB[pointer: "/result/origin/reason"] == "manual", "\(readAtB)")
        #expect(readAtB[pointer: "/result/active/reason"] == "manual", "\(readAtB)")
        #expect(try hostA.connect().call("get-focus")[pointer: "/result/origin"] == nil)
        let shownAtB = try Heraldctl.run(["focus", "show", "--socket", hostB.socketPath])
        #expect(shownAtB.stdout.contains("Turned on at host “A” (by hand), and carried here by herald-sync."), "\(shownAtB)")
        if journal {
            let entries = try JournalReader(pid: hostB.process.pid).waitForEntries(
                count: 1, matching: ["MESSAGE_ID=8e4b1c7d2a5f4093b6d8e1f0c3a7b925", "HERALD_FOCUS_ORIGIN_HOST=A"])
            #expect(entries.first?.field("HERALD_FOCUS") == "Work" && entries.first?.field("HERALD_FOCUS_ORIGIN_REASON") == "manual")
            #expect(entries.first?.field("HERALD_FOCUS_CAUSE") == "manual")
        }
        // A host that starts later takes the retained Focus, and publishes nothing of its own.
        let hostC = try HeraldProcess(.standalone)
        let syncC = try HeraldSyncProcess(broker: broker, socket: hostC.socketPath, account: Self.account, hostName: "C")
        #expect(try Self.waitForFocus(hostC, "Work"), "\(syncC.stderr)")
        let off = try hostB.connect().call("set-focus", json(#"{"focus":null}"#))
        #expect(off[pointer: "/result"] != nil, "\(off)")
        #expect(try Self.waitForFocus(hostA, nil), "\(syncA.stderr)\n\(syncB.stderr)")
        #expect(try Self.waitForFocus(hostC, nil), "\(syncC.stderr)")
        // Off at B is off by hand at A, from B (no reason: nothing was on there).
        let offAtA = try hostA.connect().call("get-focus")
        #expect(offAtA[pointer: "/result/origin/host"] == "B" && offAtA[pointer: "/result/origin/reason"] == nil, "\(offAtA)")

        // No echo, no flapping: the two changes, once each, from the host that made them.
        let changes = Self.focusMessages(subscriber)
        #expect(changes.count == 2, "\(changes)")
        let hosts = changes.compactMap { line -> String? in
            let payload = String(line.dropFirst(Self.topic.count + 1))
            return (try? IndependentJSON.parse(payload))?[pointer: "/host"]?.stringValue
        }
        #expect(hosts == ["A", "B"], "\(changes)")
        #expect(try Self.activeFocus(hostA) == nil)
        #expect(try Self.activeFocus(hostB) == nil)

        // Refused, logged, never applied: not JSON, past the size bound, another account's.
        try broker.publish("{not json", topic: Self.topic)
        try broker.publish(#"{"focus":"\#(String(repeating: "x", count: 5000))"}"#, topic: Self.topic)
        try broker.publish(
            #"{"focus":"Sleep","until":null,"cause":"manual","account":"bo","host":"C","hlc":{"ms":99999999999999,"counter":0}}"#,
            topic: Self.topic
        )
        for sync in [syncA, syncB, syncC] {
            #expect(sync.waitForLog(containing: "refused a message on \(Self.topic)", count: 3), "\(sync.stderr)")
            #expect(sync.stderr.contains("is not JSON"), "\(sync.stderr)")
            #expect(sync.stderr.contains("more than 4096"), "\(sync.stderr)")
            #expect(sync.stderr.contains("account bo's"), "\(sync.stderr)")
            #expect(sync.process.isRunning)
        }
        #expect(try Self.activeFocus(hostA) == nil)
        #expect(try Self.activeFocus(hostB) == nil)
        #expect(try Self.activeFocus(hostC) == nil)

        // The broker carried the two changes and the three refused payloads, nothing more,
        // and nothing of the notification.
        let carried = Self.focusMessages(subscriber)
        #expect(carried.count == 5, "\(carried)")
        for line in subscriber.lines {
            #expect(!line.contains("Quince") && !line.contains("jetty"), "\(line)")
        }

        // The broker away while A changes the Focus: A keeps working, and B and C take the
        // change once it is back (its retained messages gone with it).
        broker.stop()
        #expect(syncA.waitForLog(containing: "disconnected from the broker"), "\(syncA.stderr)")
        let sleep = try hostA.connect().call("set-focus", json(#"{"focus":{"name":"Sleep"}}"#))
        #expect(sleep[pointer: "/result"] != nil, "\(sleep)")
        #expect(try Self.activeFocus(hostA) == "Sleep")
        try broker.start()
        #expect(try Self.waitForFocus(hostB, "Sleep"), "\(syncA.stderr)\n\(syncB.stderr)")
        #expect(try Self.waitForFocus(hostC, "Sleep"), "\(syncC.stderr)")
        #expect(try Self.activeFocus(hostA) == "Sleep")
        // Straight from Sleep to a Focus with an end: it reaches the others, ends on every
        // host by itself, and no host publishes its end.
        let end = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3))
        let brief = try hostA.connect().call("set-focus", json(#"{"focus":{"name":"Break","until":"\#(end)"}}"#))
        #expect(brief[pointer: "/result"] != nil, "\(brief)")
        #expect(try Self.waitForFocus(hostB, "Break"), "\(syncA.stderr)\n\(syncB.stderr)")
        for host in [hostA, hostB, hostC] {
            #expect(try Self.waitForFocus(host, nil))
        }
        usleep(1_000_000)
        // Each host published only its own changes, once each.
        for (sync, count) in [(syncA, 3), (syncB, 1), (syncC, 0)] {
            #expect(sync.stderr.components(separatedBy: "published this host's change").count - 1 == count, "\(sync.stderr)")
        }

        // A and B turn on different Focuses at once: every host ends with the same one.
        let atA = try hostA.connect()
        let atB = try hostB.connect()
        try atA.send(#"{"jsonrpc":"2.0","id":1,"method":"set-focus","params":{"focus":{"name":"Work"}}}"#)
        try atB.send(#"{"jsonrpc":"2.0","id":1,"method":"set-focus","params":{"focus":{"name":"Sleep"}}}"#)
        #expect(try atA.readJSON()?[pointer: "/result"] != nil)
        #expect(try atB.readJSON()?[pointer: "/result"] != nil)
        let agreed = Date().addingTimeInterval(20)
        var focuses: [String?] = []
        repeat {
            focuses = try [hostA, hostB, hostC].map(Self.activeFocus)
            if Set(focuses).count == 1, focuses[0] != nil { break }
            usleep(20_000)
        } while Date() < agreed
        #expect(Set(focuses).count == 1 && focuses[0] != nil, "\(focuses)\n\(syncA.stderr)\n\(syncB.stderr)")
        // …and stays with it.
        usleep(1_000_000)
        #expect(try [hostA, hostB, hostC].map(Self.activeFocus) == focuses)

        for sync in [syncA, syncB, syncC] {
            #expect(sync.stop() == 0, "\(sync.stderr)")
        }
    }
}
