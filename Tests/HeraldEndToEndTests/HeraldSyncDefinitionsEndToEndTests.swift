import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Focus definitions across hosts with real parts: a mosquitto broker, three hosts
/// (heraldd and herald-sync each, one account), and a subscriber on `#` that reads every
/// message the broker carried.
@Suite(.serialized, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.unavailableReason)))
struct HeraldSyncDefinitionsEndToEndTests {
    static let account = "ann"

    /// `get-focus` at a host, read with Foundation's JSONSerialization.
    static func focus(_ herald: HeraldProcess) throws -> [String: Any] {
        let answer = try herald.connect().call("get-focus")
        let object = try JSONSerialization.jsonObject(with: Data(answer.compactText.utf8)) as? [String: Any]
        return object?["result"] as? [String: Any] ?? [:]
    }

    /// The definition named `name` at a host, or nil.
    static func definition(_ herald: HeraldProcess, _ name: String) throws -> [String: Any]? {
        let focuses = try focus(herald)["focuses"] as? [[String: Any]] ?? []
        return focuses.first { $0["name"] as? String == name }
    }

    /// Waits (at most 20 s) until `check` holds at `herald`'s get-focus.
    static func wait(_ herald: HeraldProcess, until check: ([String: Any]) throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try check(focus(herald)) { return true }
            usleep(20_000)
        }
        return false
    }

    static func active(_ result: [String: Any]) -> (name: String?, reason: String?) {
        let active = result["active"] as? [String: Any]
        return (active?["name"] as? String, active?["reason"] as? String)
    }

    static func apps(_ definition: [String: Any]?) -> [String]? { definition?["allowedApps"] as? [String] }

    /// "HH:MM" of `date` in this machine's time zone, which heraldd's schedules use too.
    static func clockTime(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    @Test func definitionsTravelSchedulesRunOnEachHostAndByHandWins() throws {
        let broker = try MosquittoBroker()
        let subscriber = try MosquittoSubscriber(broker, topic: "#")
        #expect(try subscriber.waitUntilSubscribed(broker))

        let hosts = try (0..<3).map { _ in try HeraldProcess(.standalone) }
        let names = ["A", "B", "C"]
        let syncs = try zip(hosts, names).map {
            try HeraldSyncProcess(broker: broker, socket: $0.0.socketPath, account: Self.account, hostName: $0.1)
        }
        for sync in syncs { #expect(sync.waitForLog(containing: "connected to the broker"), "\(sync.stderr)") }
        let (hostA, hostB, hostC) = (hosts[0], hosts[1], hosts[2])

        // A notification and an interaction on A, none of whose words may leave it.
        let donated = try hostA.connect().call(
            "donate",
            json(
                #"{"app":"org.example.chat","interaction":{"identifier":"m-1","direction":"incoming","intent":{"type":"sendMessage","sender":{"displayName":"Quentin Marsh"},"conversationIdentifier":"c-lighthouse","content":"Bring the lantern"}}}"#
            ))
        #expect(donated[pointer: "/result"] != nil, "\(donated)")
        let posted = try hostA.connect().call(
            "update-content",
            json(
                #"{"app":"org.example.chat","identifier":"n-1","interactionIdentifier":"m-1","content":{"title":"Quince tart","body":"Meet at the jetty"}}"#
            ))
        #expect(posted[pointer: "/result"] != nil, "\(posted)")

        // Defined on A with a schedule open now: each host turns it on by its own schedule,
        // and no Focus message travels for it.
        let now = Date()
        let (start, end) = (Self.clockTime(now.addingTimeInterval(-3600)), Self.clockTime(now.addingTimeInterval(3600)))
        let defined = try hostA.connect().call(
            "define-focus",
            json(
                #"{"focus":{"name":"Evening","allowedApps":["org.example.pager"],"allowedPeople":[{"handle":{"value":"bo@example.org","type":"emailAddress"}}],"schedules":[{"start":"\#(start)","end":"\#(end)"}]}}"#
            ))
        #expect(defined[pointer: "/result"] != nil, "\(defined)")
        for host in hosts {
            #expect(
                try Self.wait(host) { Self.active($0) == ("Evening", "schedule") },
                "\(syncs.map(\.stderr).joined(separator: "\n"))")
            let evening = try Self.definition(host, "Evening")
            #expect(Self.apps(evening) == ["org.example.pager"], "\(String(describing: evening))")
            #expect((evening?["schedules"] as? [[String: Any]])?.first?["start"] as? String == start, "\(String(describing: evening))")
            #expect((evening?["allowedPeople"] as? [[String: Any]])?.count == 1, "\(String(describing: evening))")
        }
        usleep(1_000_000)
        #expect(!subscriber.lines.contains { $0.hasPrefix("herald/ann/focus ") }, "\(subscriber.lines)")

        // Off by hand at B while the schedule is open: off everywhere, the schedule overridden.
        let off = try hostB.connect().call("set-focus", json(#"{"focus":null}"#))
        #expect(off[pointer: "/result"] != nil, "\(off)")
        for host in [hostA, hostC] {
            #expect(try Self.wait(host) { Self.active($0).name == nil })
            let now = try Self.focus(host)
            #expect((now["override"] as? [String: Any])?["scheduledFocus"] as? String == "Evening", "\(now)")
        }

        // Changed on C, it changes everywhere; the choice by hand still holds.
        let changed = try hostC.connect().call(
            "define-focus", json(#"{"focus":{"name":"Evening","allowedApps":["org.example.mail"],"schedules":[]}}"#))
        #expect(changed[pointer: "/result"] != nil, "\(changed)")
        for host in [hostA, hostB] {
            #expect(try Self.wait(host) { _ in Self.apps(try Self.definition(host, "Evening")) == ["org.example.mail"] })
            #expect(try Self.definition(host, "Evening")?["schedules"] == nil, "schedules removed travel too")
            #expect(Self.active(try Self.focus(host)).name == nil)
        }

        // Deleted on A: gone everywhere, its tombstone retained.
        let deleted = try hostA.connect().call("delete-focus", json(#"{"name":"Evening"}"#))
        #expect(deleted[pointer: "/result"] != nil, "\(deleted)")
        for host in [hostB, hostC] {
            #expect(try Self.wait(host) { _ in try Self.definition(host, "Evening") == nil })
        }

        // A and B change one definition at once: every host ends with the same one.
        let atA = try hostA.connect()
        let atB = try hostB.connect()
        try atA.send(#"{"jsonrpc":"2.0","id":1,"method":"define-focus","params":{"focus":{"name":"Work","allowedApps":["org.example.a"]}}}"#)
        try atB.send(#"{"jsonrpc":"2.0","id":1,"method":"define-focus","params":{"focus":{"name":"Work","allowedApps":["org.example.b"]}}}"#)
        #expect(try atA.readJSON()?[pointer: "/result"] != nil)
        #expect(try atB.readJSON()?[pointer: "/result"] != nil)
        // The later by (hlc, host) of the two messages wins on every host.
        var crossed: [[String: Any]] = []
        let carried = Date().addingTimeInterval(20)
        repeat {
            crossed = Set(subscriber.lines.filter { $0.hasPrefix("herald/ann/focuses/Work ") }).compactMap { line in
                try? JSONSerialization.jsonObject(with: Data(line.dropFirst("herald/ann/focuses/Work ".count).utf8)) as? [String: Any]
            }
            if crossed.count == 2 { break }
            usleep(20_000)
        } while Date() < carried
        #expect(crossed.count == 2, "\(subscriber.lines)")
        func order(_ message: [String: Any]) -> (Int, Int, String) {
            let clock = message["hlc"] as? [String: Any]
            return (clock?["ms"] as? Int ?? 0, clock?["counter"] as? Int ?? 0, message["host"] as? String ?? "")
        }
        let winner = crossed.max { order($0) < order($1) }
        let expected = Self.apps(winner?["focus"] as? [String: Any])
        #expect(expected != nil, "\(crossed)")
        for host in hosts {
            #expect(try Self.wait(host) { _ in Self.apps(try Self.definition(host, "Work")) == expected }, "\(syncs.map(\.stderr).joined(separator: "\n"))")
        }
        let seen = try hosts.map { Self.apps(try Self.definition($0, "Work")) }
        usleep(1_000_000)
        #expect(try hosts.map { Self.apps(try Self.definition($0, "Work")) } == seen, "and stays with it")

        // A host that comes later takes the definitions in effect, and no deleted one.
        let hostD = try HeraldProcess(.standalone)
        let syncD = try HeraldSyncProcess(broker: broker, socket: hostD.socketPath, account: Self.account, hostName: "D")
        #expect(try Self.wait(hostD) { _ in Self.apps(try Self.definition(hostD, "Work")) == seen[0] }, "\(syncD.stderr)")
        #expect(try Self.definition(hostD, "Evening") == nil)

        // Each change carried once, by the host that made it: no echo, no flapping. (A
        // change may be carried again, the same, when the broker's retained copy of its
        // topic is an older one that crossed it.)
        let lines = subscriber.lines
        let evening = lines.filter { $0.hasPrefix("herald/ann/focuses/Evening ") }
        #expect(Set(evening).count == 3, "defined at A, changed at C, deleted at A: \(evening)")
        #expect(evening.last?.contains(#""focus":null"#) == true, "\(evening)")
        let work = lines.filter { $0.hasPrefix("herald/ann/focuses/Work ") }
        #expect(Set(work).count == 2, "\(work)")
        #expect(Set(lines.filter { $0.hasPrefix("herald/ann/focus ") }).count == 1, "B's off by hand only: \(lines)")
        // Nothing of the notification or the interaction ever left A.
        for line in lines {
            for word in ["Quince", "jetty", "Quentin", "lantern", "lighthouse", "m-1", "n-1"] {
                #expect(!line.contains(word), "\(word) in \(line)")
            }
        }
        for sync in syncs + [syncD] { #expect(sync.stop() == 0, "\(sync.stderr)") }
    }
}
