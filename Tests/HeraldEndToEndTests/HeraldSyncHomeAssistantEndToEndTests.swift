import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Whether Debian's python3 has what the Home Assistant stand-in needs.
enum HomeAssistantStandIn {
    static let python = "/usr/bin/python3"
    static var available: Bool {
        (try? ChildProcess(python, ["-c", "import paho.mqtt.client, jinja2"]).waitForExit(timeout: 30)) == 0
    }
}

/// Home Assistant and herald-sync: a real mosquitto, two hosts, and a paho-mqtt client
/// that does with herald-sync's MQTT discovery what Home Assistant does with it
/// (Tests/Fixtures/home-assistant-client.py).
@Suite(
    .serialized, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.unavailableReason)),
    .enabled(
        if: HomeAssistantStandIn.available,
        Comment(rawValue: "needs Debian's python3-paho-mqtt and python3-jinja2 (make deps installs them)"))
)
struct HeraldSyncHomeAssistantEndToEndTests {
    static let python = HomeAssistantStandIn.python

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/home-assistant-client.py").path
    }

    /// Runs the stand-in with `action` and `option`; its exit status and what it printed.
    static func homeAssistant(_ broker: MosquittoBroker, _ action: String, _ option: String) throws -> (Int32?, String) {
        let output = broker.folder.appendingPathComponent("ha-\(UUID().uuidString.prefix(6)).log").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = try ChildProcess(
            python, [script, "127.0.0.1", String(broker.port), broker.username, broker.password, action, option],
            standardOutput: output, standardError: output)
        let status = process.waitForExit(timeout: 40)
        return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    @Test func homeAssistantShowsAndSetsTheFocusThroughDiscovery() throws {
        let broker = try MosquittoBroker()
        let hosts = try (0..<2).map { _ in try HeraldProcess(.standalone) }
        let syncs = try zip(hosts, ["A", "B"]).map {
            try HeraldSyncProcess(
                broker: broker, socket: $0.0.socketPath, account: "ann", hostName: $0.1, moreSettings: "home-assistant = yes")
        }
        for sync in syncs { #expect(sync.waitForLog(containing: "connected to the broker"), "\(sync.stderr)") }
        let logs = { syncs.map(\.stderr).joined(separator: "\n") }

        // A Focus defined at A becomes one of the select's options.
        let defined = try hosts[0].connect().call("define-focus", json(#"{"focus":{"name":"Work","allowedApps":["org.example.pager"]}}"#))
        #expect(defined[pointer: "/result"] != nil, "\(defined)")
        let options = try Self.homeAssistant(broker, "options", "Work")
        #expect(options.0 == 0, "\(options.1)\n\(logs())")
        #expect(options.1.contains(#""options": ["Off", "Work"]"#), "\(options.1)")

        // Set in Home Assistant: on at every host, by hand, as defined.
        let set = try Self.homeAssistant(broker, "set", "Work")
        #expect(set.0 == 0, "\(set.1)\n\(logs())")
        for host in hosts {
            #expect(try HeraldSyncDefinitionsEndToEndTests.wait(host) { HeraldSyncDefinitionsEndToEndTests.active($0) == ("Work", "manual") }, "\(logs())")
        }
        #expect(syncs[1].stderr.contains("applied home-assistant's change: Focus Work"), "\(syncs[1].stderr)")

        // Off by hand at B: Home Assistant's state says so.
        let off = try hosts[1].connect().call("set-focus", json(#"{"focus":null}"#))
        #expect(off[pointer: "/result"] != nil, "\(off)")
        let state = try Self.homeAssistant(broker, "state", "Off")
        #expect(state.0 == 0, "\(state.1)\n\(logs())")
        #expect(try HeraldSyncDefinitionsEndToEndTests.wait(hosts[0]) { HeraldSyncDefinitionsEndToEndTests.active($0).name == nil })
        for sync in syncs { #expect(sync.stop() == 0, "\(sync.stderr)") }
    }
}
