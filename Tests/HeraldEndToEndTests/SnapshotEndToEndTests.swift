import Foundation
import HeraldProtocol
import HeraldSystemd
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Snapshots, recovery and retention, against the real binary: every test keeps its
/// state folder across the daemons it starts, and removes it at the end.
@Suite("Snapshots, end to end")
struct SnapshotEndToEndTests {
    /// A state folder that outlives the daemons of one test.
    final class StateFolder {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("herald-e2e-\(UUID().uuidString.prefix(8))")
        var path: String { root.appendingPathComponent("state").path }
        var current: String { path + "/state.snapshot" }
        var previous: String { path + "/state.snapshot.previous" }

        deinit { try? FileManager.default.removeItem(at: root) }

        func start(_ arguments: [String] = []) throws -> HeraldProcess {
            try HeraldProcess(.standalone, arguments: ["--state-dir", path, "--log-target", "console"] + arguments)
        }

        /// The snapshot files in the folder (`state.lock` and `state.generation` left out).
        func files() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("state.snapshot") }.sorted()
        }

        func bytes(_ file: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: file))) }

        func write(_ bytes: [UInt8], to file: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: file)) }
    }

    static func message(_ identifier: String) -> JSONValue {
        [
            "app": "org.example.chat",
            "interaction": [
                "identifier": .string(identifier),
                "direction": "incoming",
                "intent": ["type": "sendMessage", "sender": ["displayName": "Ann"], "conversationIdentifier": "c1"],
            ],
        ]
    }

    static func update(_ identifier: String) -> JSONValue {
        ["app": "org.example.chat", "interactionIdentifier": .string(identifier), "content": ["body": "Lunch?"]]
    }

    /// Donates each identifier; every donation must succeed.
    static func donate(_ identifiers: [String], to herald: HeraldProcess) throws {
        let client = try herald.connect()
        for identifier in identifiers {
            let response = try client.call("donate", message(identifier))
            #expect(response[pointer: "/result/identifier"] == .string(identifier), "\(response)")
        }
    }

    /// Whether `identifier` is stored: update-content finds it (else error 1001).
    static func isStored(_ identifier: String, in herald: HeraldProcess) throws -> Bool {
        let response = try herald.connect().call("update-content", update(identifier))
        if response[pointer: "/error/code"] == 1001 { return false }
        #expect(response[pointer: "/result"] != nil, "\(response)")
        return true
    }

    static func interactions(_ herald: HeraldProcess) throws -> JSONValue? {
        try herald.connect().call("stats")[pointer: "/result/interactions"]
    }

    @Test("--durability snapshot: data donated before a snapshot survives kill -9; what came after is the documented loss")
    func survivesKill9() throws {
        let folder = StateFolder()
        do {
            let herald = try folder.start(["--snapshot-interval", "0", "--durability", "snapshot"])
            try Self.donate(["m1", "m2"], to: herald)
            let result = try herald.connect().call("snapshot")
            #expect(result[pointer: "/result/interactions"] == 2, "\(result)")
            #expect(result[pointer: "/result/generation"] == 1)
            #expect(result[pointer: "/result/path"] == .string(folder.current))
            try Self.donate(["m3"], to: herald)
            herald.stop(signal: SIGKILL)
        }
        let herald = try folder.start(["--durability", "snapshot"])
        #expect(try Self.isStored("m1", in: herald))
        #expect(try Self.isStored("m2", in: herald))
        #expect(try !Self.isStored("m3", in: herald))
        #expect(try Self.interactions(herald) == 2)
    }

    @Test("A periodic snapshot is written when something changed, and survives kill -9")
    func periodic() throws {
        let folder = StateFolder()
        do {
            let herald = try folder.start(["--snapshot-interval", "0.25"])
            try Self.donate(["m1"], to: herald)
            // The file appears at the rename; stats counts the snapshot a moment later.
            let deadline = Date().addingTimeInterval(15)
            let client = try herald.connect()
            var stats = try client.call("stats")
            while stats[pointer: "/result/snapshot/generation"] != 1, Date() < deadline {
                usleep(100_000)
                stats = try client.call("stats")
            }
            #expect(FileManager.default.fileExists(atPath: folder.current))
            #expect(stats[pointer: "/result/snapshot/generation"] == 1, "\(stats)")
            #expect(stats[pointer: "/result/snapshot/failures"] == 0)
            herald.stop(signal: SIGKILL)
        }
        let herald = try folder.start()
        #expect(try Self.isStored("m1", in: herald))
    }

    @Test("SIGTERM writes a final snapshot of what came after the last periodic one")
    func finalSnapshotOnSigterm() throws {
        let folder = StateFolder()
        do {
            let herald = try folder.start(["--snapshot-interval", "3600"])
            try Self.donate(["m1", "m2"], to: herald)
            #expect(herald.stop(signal: SIGTERM) == 0)
        }
        var status = stat()
        #expect(stat(folder.current, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(stat(folder.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        let herald = try folder.start()
        #expect(try Self.isStored("m1", in: herald))
        #expect(try Self.isStored("m2", in: herald))
    }

    @Test("An --exit-idle-time exit writes a final snapshot")
    func finalSnapshotOnIdleExit() throws {
        let folder = StateFolder()
        do {
            let herald = try folder.start(["--snapshot-interval", "0", "--exit-idle-time", "1"])
            try Self.donate(["m1"], to: herald)
            #expect(herald.waitForExit(timeout: 20) == 0)
        }
        let herald = try folder.start()
        #expect(try Self.isStored("m1", in: herald))
    }

    /// Two generations: `m1` in the previous one, `m1` and `m2` in the current one.
    static func twoGenerations(_ folder: StateFolder) throws {
        let herald = try folder.start(["--snapshot-interval", "0"])
        try donate(["m1"], to: herald)
        _ = try herald.connect().call("snapshot")
        try donate(["m2"], to: herald)
        _ = try herald.connect().call("snapshot")
        herald.stop(signal: SIGKILL)
        #expect(FileManager.default.fileExists(atPath: folder.previous))
    }

    @Test("A truncated snapshot is set aside, reported, and the previous generation loaded")
    func truncated() throws {
        let folder = StateFolder()
        try Self.twoGenerations(folder)
        let bytes = try folder.bytes(folder.current)
        try folder.write(Array(bytes.prefix(bytes.count / 2)), to: folder.current)

        let herald = try folder.start()
        #expect(try Self.isStored("m1", in: herald))
        #expect(try !Self.isStored("m2", in: herald))
        let aside = folder.files().filter { $0.hasPrefix("state.snapshot.damaged-") }
        #expect(aside.count == 1, "\(folder.files())")
        #expect(try folder.bytes(folder.path + "/" + aside[0]) == Array(bytes.prefix(bytes.count / 2)))
        #expect(herald.stderr.contains("priority=3"), "\(herald.stderr)")
        #expect(herald.stderr.contains("set aside"))
        #expect(herald.stderr.contains("message_id=\(JournalMessageID.snapshotSetAside)"), "\(herald.stderr)")
    }

    @Test("Bit flips in both generations: refuse to start, unless --discard-damaged-state")
    func bitFlipped() throws {
        let folder = StateFolder()
        try Self.twoGenerations(folder)
        for file in [folder.current, folder.previous] {
            var bytes = try folder.bytes(file)
            bytes[bytes.count - 3] ^= 0x10
            try folder.write(bytes, to: file)
        }
        let refused = try Self.startExpectingRefusal(folder, [])
        #expect(refused.contains("--discard-damaged-state"), "\(refused)")
        #expect(folder.files() == ["state.snapshot", "state.snapshot.previous"])

        let herald = try folder.start(["--discard-damaged-state"])
        #expect(try Self.interactions(herald) == 0)
        let files = folder.files()
        #expect(files.filter { $0.contains(".damaged-") }.count == 2, "\(files)")
        // It starts empty on purpose, and says so with a snapshot, so the next start needs no flag.
        #expect(files.contains("state.snapshot"))
        herald.stop(signal: SIGTERM)
        let again = try folder.start()
        #expect(try Self.interactions(again) == 0)
    }

    @Test("A snapshot of a newer format version is refused, and kept")
    func wrongVersion() throws {
        let folder = StateFolder()
        try Self.twoGenerations(folder)
        var bytes = try folder.bytes(folder.current)
        // A newer heraldd's header: version 99, its checksum sound (else it is damage).
        bytes[8] = 99
        let checksum = Self.crc32c(Array(bytes[0..<52]))
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(52..<56, with: $0) }
        try folder.write(bytes, to: folder.current)
        let refused = try Self.startExpectingRefusal(folder, [])
        #expect(refused.contains("version 99"), "\(refused)")
        #expect(try folder.bytes(folder.current) == bytes)
    }

    /// CRC-32C, bit by bit: the test's own, to reseal a header.
    static func crc32c(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    @Test("snapshot runs off the event loop yet answers in request order, and a half-close waits for it")
    func snapshotKeepsRequestOrder() throws {
        let folder = StateFolder()
        let herald = try folder.start(["--snapshot-interval", "0"])
        try Self.donate(["m1", "m2"], to: herald)
        let client = try herald.connect()
        try client.send(
            """
            {"jsonrpc":"2.0","id":1,"method":"snapshot"}
            {"jsonrpc":"2.0","id":2,"method":"stats"}
            [{"jsonrpc":"2.0","id":3,"method":"snapshot"},{"jsonrpc":"2.0","id":4,"method":"stats"}]
            {"jsonrpc":"2.0","id":5,"method":"snapshot"}

            """
        )
        client.shutdownWrite()
        let first = try client.readJSON()
        #expect(first?[pointer: "/id"] == 1 && first?[pointer: "/result/generation"] == 1, "\(String(describing: first))")
        #expect(first?[pointer: "/result/interactions"] == 2)
        let second = try client.readJSON()
        #expect(second?[pointer: "/id"] == 2 && second?[pointer: "/result/snapshot/generation"] == 1, "\(String(describing: second))")
        let batch = try client.readJSON()
        #expect(batch?[pointer: "/0/id"] == 3 && batch?[pointer: "/0/result/generation"] == 2, "\(String(describing: batch))")
        #expect(batch?[pointer: "/1/id"] == 4 && batch?[pointer: "/1/result/snapshot/generation"] == 2)
        let last = try client.readJSON()
        #expect(last?[pointer: "/id"] == 5 && last?[pointer: "/result/generation"] == 3, "\(String(describing: last))")
        #expect(try client.waitForClose())
    }

    @Test("A write that fails under ulimit -f leaves the old snapshot intact; --on-write-failure accept keeps taking changes")
    func failedWrite() throws {
        let folder = StateFolder()
        do {
            let herald = try folder.start(["--snapshot-interval", "0"])
            try Self.donate((1...150).map { "m\($0)" }, to: herald)
            #expect(herald.stop(signal: SIGTERM) == 0)
        }
        // Past the limit below before the limited heraldd takes a change: every snapshot it
        // tries fails, the periodic ones included, however few donations reach it first.
        let before = try folder.bytes(folder.current)
        #expect(before.count > 2048)

        let socket = folder.root.appendingPathComponent("limited.sock").path
        let errors = folder.root.appendingPathComponent("limited.stderr").path
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        // dash counts ulimit -f in 512-byte blocks: 2 KiB.
        let child = try ChildProcess(
            "/bin/sh",
            [
                "-c", "ulimit -f 4; exec \"$0\" \"$@\"", HeraldProcess.binaryPath, "--socket", socket, "--state-dir",
                folder.path, "--log-target", "console", "--snapshot-interval", "0.25", "--on-write-failure", "accept",
            ],
            standardError: errors
        )
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeout: 10)
        }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline, child.isRunning { usleep(10_000) }
        let client = try UnixSocketClient(path: socket)
        for index in 151...160 {
            #expect(try client.call("donate", Self.message("m\(index)"))[pointer: "/result"] != nil)
        }
        let response = try client.call("snapshot")
        #expect(response[pointer: "/error/code"] == 1010, "\(response)")
        // And the periodic one fails too: polled until it has, not slept for.
        var stats = try client.call("stats")
        let failuresDeadline = Date().addingTimeInterval(20)
        while (stats[pointer: "/result/snapshot/failures"]?.numberValue?.doubleValue ?? 0) < 2, Date() < failuresDeadline {
            usleep(50_000)
            stats = try client.call("stats")
        }
        #expect(child.isRunning)
        #expect((stats[pointer: "/result/snapshot/failures"]?.numberValue?.doubleValue ?? 0) >= 2, "\(stats)")
        // Accepted, though a stop now would lose it: the default would refuse it with 1011.
        #expect(try client.call("update-content", Self.update("m160"))[pointer: "/result"] != nil)
        #expect(stats[pointer: "/result/snapshot/refusingChanges"] == false, "\(stats)")
        #expect(stats[pointer: "/result/snapshot/cause"]?.stringValue?.contains("File too large") == true, "\(stats)")
        #expect(try folder.bytes(folder.current) == before)
        #expect(!folder.files().contains("state.snapshot.tmp"))
        // stderr is a file under the same limit, so the reason is read from the response.
        #expect("\(response)".contains("File too large"), "\(response)")
    }

    @Test("--max-interactions evicts the oldest first, and stats counts it")
    func eviction() throws {
        let folder = StateFolder()
        let herald = try folder.start(["--max-interactions", "10"])
        try Self.donate((0...10).map { "m\($0)" }, to: herald)
        #expect(try !Self.isStored("m0", in: herald))
        #expect(try Self.isStored("m1", in: herald))
        #expect(try Self.isStored("m10", in: herald))
        let stats = try herald.connect().call("stats")
        #expect(stats[pointer: "/result/interactions"] == 10)
        #expect(stats[pointer: "/result/retention/evicted"] == 1, "\(stats)")
    }

    @Test("--retention forgets interactions older than it, and stats counts them")
    func retention() throws {
        let folder = StateFolder()
        let herald = try folder.start(["--retention", "1s"])
        try Self.donate(["m1"], to: herald)
        #expect(try Self.isStored("m1", in: herald))
        // Polled until retention has forgotten it, not slept for (the clock's tests are
        // SnapshotServiceTests, on a manual clock).
        let deadline = Date().addingTimeInterval(20)
        while try Self.interactions(herald) != 0, Date() < deadline { usleep(50_000) }
        #expect(try !Self.isStored("m1", in: herald))
        let stats = try herald.connect().call("stats")
        #expect(stats[pointer: "/result/retention/expired"] == 1, "\(stats)")
        #expect(stats[pointer: "/result/interactions"] == 0)
    }

    /// Starts heraldd on `folder` and expects it to exit non-zero before serving; its stderr.
    static func startExpectingRefusal(_ folder: StateFolder, _ arguments: [String], status expected: Int32? = nil) throws -> String {
        let errors = folder.root.appendingPathComponent("refused-\(UUID().uuidString.prefix(4)).stderr").path
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let child = try ChildProcess(
            HeraldProcess.binaryPath,
            [
                "--socket", folder.root.appendingPathComponent("refused.sock").path, "--state-dir", folder.path,
                "--log-target", "console",
            ] + arguments,
            standardError: errors
        )
        let status = child.waitForExit(timeout: 30)
        #expect(status != nil && status != 0, "exit status \(String(describing: status))")
        if let expected { #expect(status == expected) }
        return (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    }
}
