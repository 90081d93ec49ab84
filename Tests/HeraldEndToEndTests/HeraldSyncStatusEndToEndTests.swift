import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `heraldctl sync status` and the hosts' online/offline, with a real mosquitto: two
/// hosts (heraldd and herald-sync each), a third herald-sync with a wrong password, and a
/// subscriber reading every message the broker carried; a TLS listener whose
/// certificate one CA signed and another did not; and one that asks each client for a
/// certificate its CA signed.
@Suite(.serialized, .enabled(if: MosquittoBroker.available, Comment(rawValue: MosquittoBroker.unavailableReason)))
struct HeraldSyncStatusEndToEndTests {
    static let account = "ann"

    @Test func statusSaysLinkTrafficRefusalsAndHostsAndAHostGoneOfflineIsSeen() throws {
        let broker = try MosquittoBroker()
        let subscriber = try MosquittoSubscriber(broker, topic: "herald/#")
        #expect(try subscriber.waitUntilSubscribed(broker))

        let hostA = try HeraldProcess(.standalone)
        let hostB = try HeraldProcess(.standalone)
        let syncA = try HeraldSyncProcess(broker: broker, socket: hostA.socketPath, account: Self.account, hostName: "A")
        let syncB = try HeraldSyncProcess(broker: broker, socket: hostB.socketPath, account: Self.account, hostName: "B")
        #expect(syncA.waitForLog(containing: "connected to the broker"), "\(syncA.stderr)")
        #expect(syncB.waitForLog(containing: "connected to the broker"), "\(syncB.stderr)")

        // Connected, to which broker, and both hosts online.
        let connected = try syncA.status { $0.stdout.contains("hosts:         A online, B online") }
        #expect(connected.status == 0, "\(connected)")
        #expect(connected.stdout.contains("connected to 127.0.0.1:\(broker.port)"), "\(connected)")
        #expect(connected.stdout.contains("as host A of account ann"), "\(connected)")
        #expect(connected.stdout.contains("last sent:     never"), "\(connected)")
        #expect(connected.stdout.contains("hosts:         A online, B online"), "\(connected)")

        // What was last sent at A and last received at B.
        let on = try hostA.connect().call("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        #expect(on[pointer: "/result"] != nil, "\(on)")
        let sent = try syncA.status { $0.stdout.contains("Focus Work on herald/ann/focus") }
        #expect(sent.stdout.contains("last sent:") && sent.stdout.contains("Focus Work on herald/ann/focus"), "\(sent)")
        let received = try syncB.status { $0.stdout.contains("A's Focus Work") }
        #expect(received.stdout.contains("last received:") && received.stdout.contains("A's Focus Work on herald/ann/focus"), "\(received)")

        // What was last refused, in the status and in --json (read with Foundation).
        try broker.publish("{not json", topic: "herald/ann/focus")
        let refused = try syncB.status(json: true) { $0.stdout.contains("is not JSON") }
        let object = refused.jsonLines.first as? [String: Any]
        let lastRefused = object?["lastRefused"] as? [String: Any]
        #expect((lastRefused?["detail"] as? String)?.contains("is not JSON") == true, "\(refused)")
        #expect(lastRefused?["topic"] as? String == "herald/ann/focus", "\(refused)")
        #expect(object?["running"] as? Bool == true && object?["link"] as? String == "connected", "\(refused)")

        // Killed without a goodbye, B is offline by its last will, which A reads.
        syncB.process.signal(SIGKILL)
        _ = syncB.process.waitForExit(timeout: 10)
        let willSeen = try syncA.status { $0.stdout.contains("B offline") }
        #expect(willSeen.stdout.contains("hosts:         A online, B offline"), "\(willSeen)")
        #expect(subscriber.waitForLine("herald/ann/hosts/B offline"), "\(subscriber.lines)")
        let stale = try syncB.status()
        #expect(stale.status == 69 && stale.stdout.contains("herald-sync is not running"), "\(stale)")

        // Stopped, A says goodbye itself: retained, so a client arriving later reads it.
        #expect(syncA.stop() == 0, "\(syncA.stderr)")
        #expect(subscriber.waitForLine("herald/ann/hosts/A offline"), "\(subscriber.lines)")
        let later = try MosquittoSubscriber(broker, topic: "herald/ann/hosts/+")
        let retained = Date().addingTimeInterval(20)
        while later.lines.count < 2, Date() < retained { usleep(50_000) }
        #expect(Set(later.lines) == ["herald/ann/hosts/A offline", "herald/ann/hosts/B offline"], "\(later.lines)")

        // A wrong password: refused, said by the status and the log, and the local Focus works.
        let wrong = broker.folder.appendingPathComponent("wrong-password").path
        try "not the password\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        let hostC = try HeraldProcess(.standalone)
        let syncC = try HeraldSyncProcess(
            broker: broker, socket: hostC.socketPath, account: Self.account, hostName: "C", passwordFile: wrong)
        #expect(syncC.waitForLog(containing: "the broker refused the connection: Not authorized"), "\(syncC.stderr)")
        let notAuthorised = try syncC.status { $0.stdout.contains("refused by") }
        #expect(notAuthorised.status == 1, "\(notAuthorised)")
        #expect(notAuthorised.stdout.contains("refused by 127.0.0.1:\(broker.port): Not authorized"), "\(notAuthorised)")
        let local = try hostC.connect().call("set-focus", json(#"{"focus":{"name":"Sleep"}}"#))
        #expect(local[pointer: "/result/focus/name"]?.stringValue == "Sleep", "\(local)")
        #expect(syncC.process.isRunning)
        #expect(syncC.stop() == 0, "\(syncC.stderr)")
    }

    /// Runs openssl with `arguments` in `folder`; whether it succeeded.
    static func openssl(_ arguments: [String], in folder: URL) throws -> Bool {
        try ChildProcess("/usr/bin/openssl", arguments.map { $0.replacingOccurrences(of: "@", with: folder.path + "/") })
            .waitForExit(timeout: 60) == 0
    }

    /// Two CAs in a new folder, `ca` and `other-ca`; the broker's certificate (for
    /// 127.0.0.1, `broker.pem`) signed by `ca`, and a certificate for each of `clients`
    /// (`NAME.pem`, `NAME.key`) signed by the CA named with it.
    static func certificates(clients: [(name: String, signer: String)] = []) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-tls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for ca in ["ca", "other-ca"] {
            #expect(try Self.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Herald test \(ca)",
                "-keyout", "@\(ca).key", "-out", "@\(ca).pem"], in: folder))
        }
        try "subjectAltName = IP:127.0.0.1\n".write(to: folder.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
        for (name, signer) in [("broker", "ca")] + clients {
            #expect(try Self.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(name == "broker" ? "127.0.0.1" : name)",
                "-keyout", "@\(name).key", "-out", "@\(name).csr"], in: folder))
            #expect(try Self.openssl(["x509", "-req", "-in", "@\(name).csr", "-CA", "@\(signer).pem", "-CAkey", "@\(signer).key", "-CAcreateserial",
                "-days", "2"] + (name == "broker" ? ["-extfile", "@san.ext"] : []) + ["-out", "@\(name).pem"], in: folder))
        }
        return folder
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs openssl to make certificates"))
    func aCertificateTheCADidNotSignIsShownAndTheFocusKeepsWorking() throws {
        // Two CAs: the broker's certificate (for 127.0.0.1) is signed by the first only.
        let folder = try Self.certificates()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tlsPort = try MosquittoBroker.freePort()
        let broker = try MosquittoBroker(moreConfiguration: """
            listener \(tlsPort) 127.0.0.1
            certfile \(folder.path)/broker.pem
            keyfile \(folder.path)/broker.key
            """)

        // Trusting the other CA: the broker's certificate is refused, and said so.
        let host = try HeraldProcess(.standalone)
        let untrusting = try HeraldSyncProcess(
            broker: broker, socket: host.socketPath, account: Self.account, hostName: "A", brokerPort: tlsPort,
            moreSettings: "ca-file = \(folder.path)/other-ca.pem")
        #expect(untrusting.waitForLog(containing: "cannot connect to the broker:"), "\(untrusting.stderr)")
        #expect(untrusting.stderr.contains("certificate verify failed"), "\(untrusting.stderr)")
        let failing = try untrusting.status { $0.stdout.contains("cannot connect to") }
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.stdout.contains("cannot connect to 127.0.0.1:\(tlsPort)") && failing.stdout.contains("certificate verify failed"), "\(failing)")
        let local = try host.connect().call("set-focus", json(#"{"focus":{"name":"Sleep"}}"#))
        #expect(local[pointer: "/result/focus/name"]?.stringValue == "Sleep", "\(local)")
        #expect(untrusting.stop() == 0, "\(untrusting.stderr)")

        // Trusting the CA that signed it: connected, over TLS.
        let trusting = try HeraldSyncProcess(
            broker: broker, socket: host.socketPath, account: Self.account, hostName: "B", brokerPort: tlsPort,
            moreSettings: "ca-file = \(folder.path)/ca.pem")
        #expect(trusting.waitForLog(containing: "connected to the broker 127.0.0.1:\(tlsPort)"), "\(trusting.stderr)")
        #expect(trusting.stop() == 0, "\(trusting.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs openssl to make certificates"))
    func aBrokerAsksForAClientCertificateItsCASigned() throws {
        let folder = try Self.certificates(clients: [("desk", "ca"), ("stranger", "other-ca")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let tlsPort = try MosquittoBroker.freePort()
        let broker = try MosquittoBroker(moreConfiguration: """
            listener \(tlsPort) 127.0.0.1
            cafile \(folder.path)/ca.pem
            certfile \(folder.path)/broker.pem
            keyfile \(folder.path)/broker.key
            require_certificate true
            """)
        func settings(_ name: String) -> String {
            "ca-file = \(folder.path)/ca.pem\ncert-file = \(folder.path)/\(name).pem\nkey-file = \(folder.path)/\(name).key"
        }

        // A certificate another CA signed: the broker refuses it, and the status names it.
        let host = try HeraldProcess(.standalone)
        let stranger = try HeraldSyncProcess(
            broker: broker, socket: host.socketPath, account: Self.account, hostName: "A", brokerPort: tlsPort, moreSettings: settings("stranger"))
        let refused = try stranger.status { $0.stdout.contains("client certificate") }
        #expect(refused.status == 1, "\(refused)\n\(stranger.stderr)")
        #expect(refused.stdout.contains("cannot connect to 127.0.0.1:\(tlsPort): the broker "), "\(refused)\n\(stranger.stderr)")
        #expect(
            refused.stdout.contains("this host's client certificate (cert-file \(folder.path)/stranger.pem)"), "\(refused)\n\(stranger.stderr)")
        #expect(stranger.stderr.contains("client certificate"), "\(stranger.stderr)")
        let local = try host.connect().call("set-focus", json(#"{"focus":{"name":"Sleep"}}"#))
        #expect(local[pointer: "/result/focus/name"]?.stringValue == "Sleep", "\(local)")
        #expect(stranger.stop() == 0, "\(stranger.stderr)")

        // One the broker's CA signed: connected, and the Focus travels.
        let desk = try HeraldSyncProcess(
            broker: broker, socket: host.socketPath, account: Self.account, hostName: "B", brokerPort: tlsPort, moreSettings: settings("desk"))
        #expect(desk.waitForLog(containing: "connected to the broker 127.0.0.1:\(tlsPort)"), "\(desk.stderr)")
        let connected = try desk.status { $0.stdout.contains("connected to 127.0.0.1:\(tlsPort)") }
        #expect(connected.status == 0, "\(connected)")
        #expect(desk.stop() == 0, "\(desk.stderr)")

        // Half the pair, or a file that cannot be read, stops herald-sync at start, named.
        let halfPair = try HeraldSyncProcess(
            broker: broker, socket: host.socketPath, account: Self.account, hostName: "C", brokerPort: tlsPort,
            moreSettings: "ca-file = \(folder.path)/ca.pem\ncert-file = \(folder.path)/desk.pem")
        #expect(halfPair.process.waitForExit(timeout: 20) == 1)
        #expect(halfPair.stderr.contains("cert-file and key-file go together"), "\(halfPair.stderr)")
        let missing = try HeraldSyncProcess(
            broker: broker, socket: host.socketPath, account: Self.account, hostName: "D", brokerPort: tlsPort,
            moreSettings: "ca-file = \(folder.path)/ca.pem\ncert-file = \(folder.path)/desk.pem\nkey-file = \(folder.path)/nowhere.key")
        #expect(missing.process.waitForExit(timeout: 20) == 1)
        #expect(missing.stderr.contains("cannot read the key-file \(folder.path)/nowhere.key"), "\(missing.stderr)")
    }
}
