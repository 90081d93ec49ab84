import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// herald-sync across a network: the broker in a network namespace of its own, each
/// host's herald-sync in another, linked to it by a veth pair; links cut and restored
/// while the hosts change things; and a broker with an ACL.
@Suite(
    .serialized, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.unavailableReason)),
    .enabled(if: NetworkNamespaces.unavailableReason == nil, Comment(rawValue: NetworkNamespaces.unavailableReason ?? ""))
)
struct HeraldSyncPartitionEndToEndTests {
    typealias Focus = HeraldSyncDefinitionsEndToEndTests

    /// Waits (at most `timeout` seconds) until `check` holds.
    static func eventually(timeout: Double = 60, _ check: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try check() { return true }
            usleep(50_000)
        }
        return false
    }

    @Test func hostsCutOffKeepWorkingAndReconcileWhenTheLinkComesBack() throws {
        let namespaces = try NetworkNamespaces(hostCount: 2)
        let broker = try MosquittoBroker(namespace: namespaces.broker)
        let subscriber = try MosquittoSubscriber(broker, topic: "#")
        #expect(try subscriber.waitUntilSubscribed(broker))
        let hosts = try (0..<2).map { _ in try HeraldProcess(.standalone) }
        let syncs = try (0..<2).map { index in
            try HeraldSyncProcess(
                broker: broker, socket: hosts[index].socketPath, account: "ann", hostName: ["A", "B"][index],
                namespace: namespaces.hosts[index], brokerHost: namespaces.brokerAddress(index), keepalive: 5)
        }
        for sync in syncs { #expect(sync.waitForLog(containing: "connected to the broker 10.47."), "\(sync.stderr)") }
        let (hostA, hostB) = (hosts[0], hosts[1])
        let logs = { syncs.map(\.stderr).joined(separator: "\n") }

        // A schedule open now, defined at A: on at both by their own schedules.
        let now = Date()
        let (start, end) = (Focus.clockTime(now.addingTimeInterval(-3600)), Focus.clockTime(now.addingTimeInterval(3600)))
        let defined = try hostA.connect().call(
            "define-focus", json(#"{"focus":{"name":"Evening","schedules":[{"start":"\#(start)","end":"\#(end)"}]}}"#))
        #expect(defined[pointer: "/result"] != nil, "\(defined)")
        for host in hosts { #expect(try Focus.wait(host) { Focus.active($0) == ("Evening", "schedule") }, "\(logs())") }

        // The links cut: the broker gives up on both after their keepalive and says so
        // with their last wills; each host keeps working on its own.
        try namespaces.setLink(0, up: false)
        try namespaces.setLink(1, up: false)
        #expect(Self.eventually { Set(subscriber.lines).isSuperset(of: ["herald/ann/hosts/A offline", "herald/ann/hosts/B offline"]) },
            "\(subscriber.lines)")
        let off = try hostA.connect().call("set-focus", json(#"{"focus":null}"#))
        #expect(off[pointer: "/result"] != nil, "\(off)")
        let reading = try hostA.connect().call("define-focus", json(#"{"focus":{"name":"Reading","allowedApps":["org.example.books"]}}"#))
        #expect(reading[pointer: "/result"] != nil, "\(reading)")
        let work = try hostB.connect().call("define-focus", json(#"{"focus":{"name":"Work","allowedApps":["org.example.b"]}}"#))
        #expect(work[pointer: "/result"] != nil, "\(work)")
        #expect(Focus.active(try Focus.focus(hostA)).name == nil)
        #expect(Focus.active(try Focus.focus(hostB)) == ("Evening", "schedule"), "B's schedule, while A cannot reach it")
        let statusA = try syncs[0].status { !$0.stdout.contains("connected to") }
        #expect(statusA.stdout.contains("disconnected from 10.47.1.1:1883"), "\(statusA)")

        // The links back: each takes the other's changes, and A's off by hand beats B's schedule.
        try namespaces.setLink(0, up: true)
        try namespaces.setLink(1, up: true)
        #expect(try Self.eventually { Focus.active(try Focus.focus(hostB)).name == nil }, "\(logs())")
        #expect((try Focus.focus(hostB)["override"] as? [String: Any])?["scheduledFocus"] as? String == "Evening")
        #expect(try Self.eventually { Focus.apps(try Focus.definition(hostB, "Reading")) == ["org.example.books"] }, "\(logs())")
        #expect(try Self.eventually { Focus.apps(try Focus.definition(hostA, "Work")) == ["org.example.b"] }, "\(logs())")
        #expect(Self.eventually { subscriber.lines.filter { $0.hasSuffix("/hosts/A online") }.count == 2 }, "\(subscriber.lines)")
        let statusB = try syncs[1].status { $0.stdout.contains("A online, B online") }
        #expect(statusB.status == 0 && statusB.stdout.contains("connected to 10.47.2.1:1883"), "\(statusB)")

        // …and nothing flaps: every change carried once, the hosts stay as they are.
        usleep(1_000_000)
        let lines = subscriber.lines
        // (At least once: a change sent before the cut may arrive twice, the same message.)
        #expect(Set(lines.filter { $0.hasPrefix("herald/ann/focus ") }).count == 1, "A's off only: \(lines)")
        for name in ["Evening", "Reading", "Work"] {
            #expect(Set(lines.filter { $0.hasPrefix("herald/ann/focuses/\(name) ") }).count == 1, "\(name): \(lines)")
        }
        let (afterA, afterB) = (try Focus.focus(hostA), try Focus.focus(hostB))
        #expect(Focus.active(afterA).name == nil && Focus.active(afterB).name == nil, "\(afterA)\n\(afterB)")
        for sync in syncs { #expect(sync.stop() == 0, "\(sync.stderr)") }
    }

    @Test func anACLThatRefusesTheAccountsTopicsIsShownAndTheFocusKeepsWorking() throws {
        let namespaces = try NetworkNamespaces(hostCount: 1)
        let broker = try MosquittoBroker(
            otherUsers: ["bo": "bo's secret"], acl: "user ann\ntopic readwrite herald/ann/#\nuser bo\ntopic readwrite herald/bo/#\n",
            namespace: namespaces.broker)
        let host = try HeraldProcess(.standalone)
        // Bo's credentials, Ann's account: the broker lets bo in, but not onto herald/ann/#.
        let sync = try HeraldSyncProcess(
            broker: broker, socket: host.socketPath, account: "ann", hostName: "A", passwordFile: try broker.passwordFile(holding: "bo's secret"),
            username: "bo", namespace: namespaces.hosts[0], brokerHost: namespaces.brokerAddress(0))
        // Its first publication (online) is answered Not authorized.
        #expect(sync.waitForLog(containing: "the broker refuses publications under herald/ann/ (its ACL): Not authorized"), "\(sync.stderr)")
        let status = try sync.status { $0.stdout.contains("refused by") }
        #expect(status.status == 1, "\(status)")
        #expect(status.stdout.contains("refused by 10.47.1.1:1883: the broker refuses publications under herald/ann/ (its ACL)"), "\(status)")
        let local = try host.connect().call("set-focus", json(#"{"focus":{"name":"Sleep"}}"#))
        #expect(local[pointer: "/result/focus/name"]?.stringValue == "Sleep", "\(local)")
        #expect(sync.process.isRunning)
        #expect(sync.stop() == 0, "\(sync.stderr)")
    }
}
