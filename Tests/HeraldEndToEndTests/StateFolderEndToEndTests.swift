import Foundation
import HeraldProtocol
import HeraldSystemd
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The state folder under faults: a second daemon on it, a kill -9 in the middle of a
/// large snapshot's write, a damaged version byte. Responses that carry the figures
/// checked are read with Foundation's `JSONSerialization`, not Herald's parser.
@Suite("State folder under faults, end to end")
struct StateFolderEndToEndTests {
    typealias Folder = SnapshotEndToEndTests.StateFolder

    /// `method`'s result read from the raw response line with `JSONSerialization`.
    static func result(_ client: UnixSocketClient, _ method: String) throws -> [String: Any] {
        try client.send(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)"}"# + "\n")
        let line = try #require(try client.readLine(timeout: 120))
        let response = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(response["result"] as? [String: Any], "\(line)")
    }

    static func interactions(_ herald: HeraldProcess) throws -> Int? {
        try result(try herald.connect(), "stats")["interactions"] as? Int
    }

    /// Donates messages `range` in batches of 1,000; every one must succeed.
    static func donate(_ range: Range<Int>, to herald: HeraldProcess) throws {
        let client = try herald.connect()
        for batch in stride(from: range.lowerBound, to: range.upperBound, by: 1000) {
            let requests = (batch..<min(batch + 1000, range.upperBound)).map { index in
                #"{"jsonrpc":"2.0","id":\#(index),"method":"donate","params":{"app":"org.example.chat","interaction":"#
                    + #"{"identifier":"m\#(index)","direction":"incoming","intent":{"type":"sendMessage","#
                    + #""sender":{"displayName":"Ann"},"content":"Lunch?","conversationIdentifier":"c\#(index % 100)"}}}}"#
            }
            try client.send("[" + requests.joined(separator: ",") + "]\n")
            let line = try #require(try client.readLine(timeout: 120))
            let responses = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
            let allDonated = responses.count == requests.count && responses.allSatisfy { $0["result"] != nil }
            #expect(allDonated, "\(line.prefix(300))")
        }
    }

    @Test("A second heraldd on the same state folder is refused, exit 1, naming the first one's pid")
    func oneDaemonPerFolder() throws {
        let folder = Folder()
        let first = try folder.start(["--snapshot-interval", "0"])
        try SnapshotEndToEndTests.donate(["m1"], to: first)
        let refused = try SnapshotEndToEndTests.startExpectingRefusal(folder, [], status: 1)
        #expect(refused.contains("another heraldd (pid \(first.process.pid)) holds the state folder"), "\(refused)")
        #expect(refused.contains(folder.path))
        #expect(refused.contains("priority=2") && refused.contains("message_id=\(JournalMessageID.startRefused)"), "\(refused)")
        // The first one is untouched by the attempt, and keeps serving.
        #expect(try SnapshotEndToEndTests.isStored("m1", in: first))
        #expect(folder.files() == [])

        // A kill -9 leaves no stale lock: the kernel lets go with the process; and the change
        // log kept what was acknowledged, though no snapshot was written.
        first.stop(signal: SIGKILL)
        let second = try folder.start()
        #expect(try Self.interactions(second) == 1)
        let lock = try String(contentsOfFile: folder.path + "/state.lock", encoding: .utf8)
        #expect(lock == "\(second.process.pid)\n")
    }

    @Test("A change log segment the disk will not give back refuses the start, exit 1, and is left for the next start")
    func unreadableSegmentRefusesTheStart() throws {
        let folder = Folder()
        let first = try folder.start(["--snapshot-interval", "0"])
        try SnapshotEndToEndTests.donate(["m1"], to: first)
        first.stop(signal: SIGKILL)
        // A segment after the logged one that opens and fails every read (EISDIR): not
        // damage, which would be cut away, but the disk's refusal.
        let unreadable = folder.path + "/changes.99.log"
        try FileManager.default.createDirectory(atPath: unreadable, withIntermediateDirectories: false)
        let refused = try SnapshotEndToEndTests.startExpectingRefusal(folder, [], status: 1)
        #expect(refused.contains("cannot read its change log: changes.99.log"), "\(refused)")
        #expect(refused.contains("priority=2") && refused.contains("message_id=\(JournalMessageID.startRefused)"), "\(refused)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: unreadable, isDirectory: &isFolder) && isFolder.boolValue)
        // Once the administrator has dealt with it, the next start replays what was logged.
        try FileManager.default.removeItem(atPath: unreadable)
        let second = try folder.start(["--snapshot-interval", "0"])
        #expect(try SnapshotEndToEndTests.isStored("m1", in: second))
    }

    @Test("A damaged version byte with a good .previous starts, serves the previous generation, and takes a new number")
    func damagedVersionByte() throws {
        let folder = Folder()
        try SnapshotEndToEndTests.twoGenerations(folder)
        var bytes = try folder.bytes(folder.current)
        bytes[8] ^= 0x01
        try folder.write(bytes, to: folder.current)

        let herald = try folder.start(["--snapshot-interval", "0"])
        #expect(try SnapshotEndToEndTests.isStored("m1", in: herald))
        #expect(try !SnapshotEndToEndTests.isStored("m2", in: herald))
        let aside = folder.files().filter { $0.hasPrefix("state.snapshot.damaged-") }
        #expect(aside.count == 1, "\(folder.files())")
        #expect(try folder.bytes(folder.path + "/" + aside[0]) == bytes)
        #expect(herald.stderr.contains("header's checksum"), "\(herald.stderr)")
        // The snapshot written at once after recovery is generation 3, not the damaged one's 2.
        let snapshot = try #require(try Self.result(try herald.connect(), "stats")["snapshot"] as? [String: Any])
        #expect(snapshot["generation"] as? Int == 3, "\(snapshot)")
    }

    @Test("kill -9 during the write of a snapshot of 200,000 interactions leaves a state that loads")
    func killDuringLargeSnapshot() throws {
        let folder = Folder()
        let options = ["--snapshot-interval", "0", "--max-interactions", "1000000"]
        var herald = try folder.start(options)
        try Self.donate(0..<200_000, to: herald)
        let first = try Self.result(try herald.connect(), "snapshot")
        #expect(first["interactions"] as? Int == 200_000)
        var durable = 200_000
        // Killed: while the state is encoded, as the temporary file appears, and in the
        // middle of its write.
        let temporary = folder.path + "/state.snapshot.tmp"
        let moments: [(String, () -> Bool)] = [
            ("encoding", { usleep(150_000) == 0 }),
            ("the temporary file appears", { FileManager.default.fileExists(atPath: temporary) }),
            ("a megabyte of the file written", { Self.size(temporary) >= 1 << 20 }),
        ]
        for (round, (moment, isNow)) in moments.enumerated() {
            try Self.donate((200_000 + round)..<(200_001 + round), to: herald)
            let before = Self.size(folder.current)
            let client = try herald.connect()
            try client.send(#"{"jsonrpc":"2.0","id":1,"method":"snapshot"}"# + "\n")
            // Polled, not slept: should the moment pass unseen, the new snapshot's arrival ends the wait.
            let deadline = Date().addingTimeInterval(120)
            while !isNow(), Self.size(folder.current) == before, Date() < deadline { usleep(200) }
            let caught =
                FileManager.default.fileExists(atPath: temporary)
                ? "\(Self.size(temporary)) bytes of the temporary file" : "no temporary file"
            herald.stop(signal: SIGKILL)

            herald = try folder.start(options)
            let restored = try #require(try Self.interactions(herald))
            #expect(restored == durable || restored == durable + 1, "killed at \(moment): \(restored) interactions, \(durable) durable")
            #expect(!folder.files().contains("state.snapshot.tmp"))
            #expect(!folder.files().contains { $0.contains(".damaged-") }, "killed at \(moment): \(folder.files())")
            print("killed at \(moment), with \(caught) written: \(restored) interactions loaded, \(durable) were durable")
            durable = restored
        }
    }

    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
}
