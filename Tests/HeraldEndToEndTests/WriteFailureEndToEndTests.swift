import Foundation
import HeraldProtocol
import HeraldSystemd
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whether this test may mount a tmpfs in a mount namespace of its own: as root, with util-linux.
private let canMountSmallDisks =
    geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/nsenter")

private struct SmallDiskFailure: Error, CustomStringConvertible {
    var description: String
}

/// The state folder on a disk that fills, against the real binary: changes refused while
/// reads answer, recovery once space is back, a failed final snapshot's exit status and
/// crit entry, and the next start's report. Tests run as root here, where `chmod 500`
/// stops no write, so the folder is a small tmpfs in a mount namespace of its own.
@Suite("State folder full or read-only, end to end", .enabled(if: canMountSmallDisks))
struct WriteFailureEndToEndTests {
    /// A tmpfs of a few hundred KiB as the state folder, mounted in a mount namespace held
    /// by a sleeping process; each heraldd enters it with `nsenter`, keeping its pid, and
    /// the test reaches the folder through `/proc/<holder>/root`. Unmounted with the holder.
    final class SmallDisk {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("herald-e2e-disk-\(UUID().uuidString.prefix(8))")
        var path: String { root.appendingPathComponent("state").path }
        let holder: ChildProcess

        init(kilobytes: Int = 512) throws {
            try FileManager.default.createDirectory(atPath: root.appendingPathComponent("state").path, withIntermediateDirectories: true)
            holder = try ChildProcess("/usr/bin/unshare", ["--mount", "--propagation", "private", "sleep", "3600"])
            // Not before unshare(2) ran: a mount now would land in the test's own namespace.
            let ours = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/mnt")
            let deadline = Date().addingTimeInterval(10)
            while (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(holder.pid)/ns/mnt")) ?? ours == ours {
                guard Date() < deadline, holder.isRunning else { throw SmallDiskFailure(description: "no mount namespace") }
                usleep(5_000)
            }
            let mount = try ChildProcess(
                "/usr/bin/nsenter",
                ["-t", "\(holder.pid)", "-m", "--", "/usr/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", path])
            guard mount.waitForExit(timeout: 10) == 0 else { throw SmallDiskFailure(description: "mount failed") }
        }

        deinit {
            holder.signal(SIGKILL)
            _ = holder.waitForExit(timeout: 10)
            try? FileManager.default.removeItem(at: root)
        }

        /// The folder as this process sees it: inside the holder's namespace.
        var seen: String { "/proc/\(holder.pid)/root" + path }

        /// Takes every free block of the tmpfs, as another program filling the disk would.
        func fill() {
            let fd = open(seen + "/filler", O_WRONLY | O_CREAT | O_APPEND, 0o600)
            defer { close(fd) }
            let chunk = [UInt8](repeating: 0x5a, count: 4096)
            while write(fd, chunk, chunk.count) > 0 {}
            // The last partial block: byte by byte until the disk says it is full.
            while write(fd, chunk, 1) == 1 {}
        }

        /// Gives the space back.
        func free() { unlink(seen + "/filler") }

        /// Remounts the folder read-only, or writable again, as an administrator would.
        func remount(readOnly: Bool) throws {
            let remount = try ChildProcess(
                "/usr/bin/nsenter",
                ["-t", "\(holder.pid)", "-m", "--", "/usr/bin/mount", "-o", readOnly ? "remount,ro" : "remount,rw", path])
            guard remount.waitForExit(timeout: 10) == 0 else { throw SmallDiskFailure(description: "remount failed") }
        }

        func start(_ arguments: [String], environment: [String: String] = [:]) throws -> HeraldProcess {
            try HeraldProcess(
                .standalone, arguments: ["--state-dir", path] + arguments, environment: environment,
                launcher: ["/usr/bin/nsenter", "-t", "\(holder.pid)", "-m", "--"])
        }
    }

    static let noSpace = "No space left on device"

    /// heraldd's stderr once it holds `text` (the console writer runs on a thread of its
    /// own), or as it is after 30 s.
    static func stderr(of herald: HeraldProcess, once text: String) -> String {
        let deadline = Date().addingTimeInterval(30)
        while !herald.stderr.contains(text), Date() < deadline { usleep(20_000) }
        return herald.stderr
    }

    static func snapshotMember(_ herald: HeraldProcess) throws -> JSONValue {
        let stats = try herald.connect().call("stats")
        return try #require(stats[pointer: "/result/snapshot"], "\(stats)")
    }

    static func donation(_ identifier: String, on herald: HeraldProcess) throws -> JSONValue {
        try herald.connect().call("donate", SnapshotEndToEndTests.message(identifier))
    }

    /// Donates `identifier` until it is taken: the refusal ends at the next periodic
    /// snapshot after the space is back. An event waited for (at most a minute), no timing.
    static func donateOnceTaken(_ identifier: String, on herald: HeraldProcess) throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let answer = try donation(identifier, on: herald)
            if answer[pointer: "/result/identifier"] == .string(identifier) { return true }
            #expect(answer[pointer: "/error/code"] == 1011, "only the refusal, while it lasts: \(answer)")
            usleep(50_000)
        }
        return false
    }

    static func expectRefusal(_ answer: JSONValue, folder: String, cause: String = noSpace) {
        #expect(answer[pointer: "/error/code"] == 1011, "\(answer)")
        #expect(answer[pointer: "/error/message"] == "State not writable")
        let reason = answer[pointer: "/error/data/reason"]?.stringValue ?? ""
        #expect(reason.contains(folder) && reason.contains(cause), "\(reason)")
    }

    @Test("A full folder: snapshot answers 1010, changes 1011 while reads answer; taken again once space is back")
    func refusedWhileFullThenRecovered() throws {
        let disk = try SmallDisk()
        let notify = try NotifySocket(path: disk.root.appendingPathComponent("notify").path)
        let herald = try disk.start(["--snapshot-interval", "0.2", "--log-target", "console"], environment: ["NOTIFY_SOCKET": notify.path])
        try SnapshotEndToEndTests.donate(["m1"], to: herald)
        let written = try herald.connect().call("snapshot")
        #expect(written[pointer: "/result/interactions"] == 1, "\(written)")

        disk.fill()
        let failed = try herald.connect().call("snapshot")
        #expect(failed[pointer: "/error/code"] == 1010, "\(failed)")
        #expect(failed[pointer: "/error/message"] == "Snapshot failed")
        let reason = failed[pointer: "/error/data/reason"]?.stringValue ?? ""
        #expect(reason.contains(disk.path) && reason.contains(Self.noSpace) && reason.contains("intact"), "\(reason)")

        Self.expectRefusal(try Self.donation("m2", on: herald), folder: disk.path)
        // systemctl status shows it: STATUS= says since when and why.
        let status = notify.waitFor(lineStartingWith: "STATUS=State not written since")
        #expect(status?.contains(Self.noSpace) == true && status?.hasSuffix("refusing changes") == true, "\(status ?? "no STATUS")")
        // Reads answer: the state, and why it is not written.
        #expect(try SnapshotEndToEndTests.interactions(herald) == 1)
        let member = try Self.snapshotMember(herald)
        #expect(member[pointer: "/refusingChanges"] == true, "\(member)")
        #expect(member[pointer: "/notWrittenSince"]?.stringValue != nil)
        #expect(member[pointer: "/cause"]?.stringValue?.contains(Self.noSpace) == true)
        let ctlStatus = try Heraldctl.run(["status", "--socket", herald.socketPath])
        #expect(ctlStatus.stdout.contains("STATE NOT WRITTEN since") && ctlStatus.stdout.contains(Self.noSpace), "\(ctlStatus)")
        #expect(ctlStatus.stdout.contains("changes are refused"), "\(ctlStatus)")
        let ctlSnapshot = try Heraldctl.run(["snapshot", "--socket", herald.socketPath])
        #expect(ctlSnapshot.status != 0 && ctlSnapshot.stderr.contains("1010"), "\(ctlSnapshot)")

        disk.free()
        #expect(try Self.donateOnceTaken("m2", on: herald), "taken again once a snapshot succeeds")
        #expect(notify.waitFor("STATUS=Serving: state written again") != nil)
        let after = try Self.snapshotMember(herald)
        #expect(after[pointer: "/refusingChanges"] == false && after[pointer: "/notWrittenSince"] == .null, "\(after)")
        let log = Self.stderr(of: herald, once: "message_id=\(JournalMessageID.stateWrittenAgain)")
        #expect(log.contains("message_id=\(JournalMessageID.stateNotWritten)"), "\(log)")
        #expect(log.contains("message_id=\(JournalMessageID.stateWrittenAgain)"), "\(log)")
        #expect(herald.stop(signal: SIGTERM) == 0)
    }

    @Test("SIGTERM on a full folder: exit 74 and a crit entry; the next start says what was lost, and clears it")
    func failedFinalSnapshot() throws {
        let disk = try SmallDisk()
        let journal = JournalReader.isAvailable
        // Without a change log, the loss this test is about; with one, m2 and m3 are in the
        // log and replayed (ChangeLogKillEndToEndTests).
        let herald = try disk.start(["--snapshot-interval", "0", "--durability", "snapshot", "--log-target", journal ? "journal" : "console"])
        try SnapshotEndToEndTests.donate(["m1"], to: herald)
        #expect(try herald.connect().call("snapshot")[pointer: "/result/generation"] == 1)
        try SnapshotEndToEndTests.donate(["m2", "m3"], to: herald)
        disk.fill()
        #expect(herald.stop(signal: SIGTERM) == 74)

        if journal {
            let entries = try JournalReader(pid: herald.process.pid).waitForEntries(
                count: 1, matching: ["MESSAGE_ID=\(JournalMessageID.finalSnapshotFailed)"])
            let entry = try #require(entries.first, "the crit entry is in the journal")
            #expect(entry.field("PRIORITY") == "2")
            #expect(entry.field("HERALD_CAUSE")?.contains(Self.noSpace) == true, "\(entry)")
            #expect(entry.field("HERALD_FOLDER") == disk.path)
            #expect(entry.field("HERALD_RECORD") == "written", "\(entry)")
            #expect(Int(entry.field("HERALD_UNWRITTEN_CHANGES") ?? "") ?? 0 >= 2, "\(entry)")
        } else {
            let log = herald.stderr
            #expect(log.contains("message_id=\(JournalMessageID.finalSnapshotFailed)"), "\(log)")
            #expect(log.contains("priority=2"), "\(log)")
        }

        // Started on the disk still full: m1 restored and readable, changes refused, the loss told.
        let next = try disk.start(["--snapshot-interval", "0.2", "--durability", "snapshot", "--log-target", "console"])
        let startLine = Self.stderr(of: next, once: "message_id=\(JournalMessageID.previousStopLostState)")
        #expect(
            startLine.contains("pid \(herald.process.pid)) stopped at") && startLine.contains("without its final snapshot"), "\(startLine)")
        #expect(startLine.contains(Self.noSpace) && startLine.contains("are lost"), "\(startLine)")
        #expect(startLine.contains("message_id=\(JournalMessageID.previousStopLostState)"), "\(startLine)")
        #expect(try SnapshotEndToEndTests.interactions(next) == 1)
        let member = try Self.snapshotMember(next)
        #expect(member[pointer: "/previousStop/pid"] == .number(JSONNumber(Int(herald.process.pid))), "\(member)")
        #expect(member[pointer: "/previousStop/generation"] == 1)
        #expect((member[pointer: "/previousStop/unwrittenChanges"]?.numberValue?.intValue ?? 0) >= 2, "\(member)")
        Self.expectRefusal(try Self.donation("m4", on: next), folder: disk.path)
        let status = try Heraldctl.run(["status", "--socket", next.socketPath])
        #expect(status.stdout.contains("previous stop: pid \(herald.process.pid)") && status.stdout.contains("are lost"), "\(status)")

        disk.free()
        #expect(try Self.donateOnceTaken("m4", on: next))
        // The record is cleared by that snapshot: a clean stop, and the next start tells nothing.
        let record = try Data(contentsOf: URL(fileURLWithPath: disk.seen + "/state.unwritten"))
        #expect(record.first == 0, "cleared: \(String(decoding: record.prefix(80), as: UTF8.self))")
        #expect(next.stop(signal: SIGTERM) == 0)
        let third = try disk.start(["--snapshot-interval", "0", "--log-target", "console"])
        let thirdLine = Self.stderr(of: third, once: "serving on")
        #expect(thirdLine.contains("serving on") && !thirdLine.contains("without its final snapshot"), "\(thirdLine)")
        #expect(try SnapshotEndToEndTests.isStored("m4", in: third))
    }

    @Test("Started on a full disk after a clean stop: restores, answers reads, refuses changes, recovers")
    func startsOnAFullDisk() throws {
        let disk = try SmallDisk()
        let first = try disk.start(["--snapshot-interval", "0", "--log-target", "console"])
        try SnapshotEndToEndTests.donate(["m1", "m2"], to: first)
        #expect(first.stop(signal: SIGTERM) == 0)

        disk.fill()
        let herald = try disk.start(["--snapshot-interval", "0.2", "--log-target", "console"])
        #expect(herald.process.isRunning)
        let startLine = Self.stderr(of: herald, once: "serving on")
        #expect(startLine.contains("state not written since") && startLine.contains("refusing changes"), "\(startLine)")
        #expect(startLine.contains(Self.noSpace) && startLine.contains("message_id=\(JournalMessageID.stateNotWritten)"), "\(startLine)")
        #expect(try SnapshotEndToEndTests.interactions(herald) == 2)
        Self.expectRefusal(try Self.donation("m3", on: herald), folder: disk.path)

        disk.free()
        #expect(try Self.donateOnceTaken("m3", on: herald))
        #expect(herald.stop(signal: SIGTERM) == 0)
        let again = try disk.start(["--snapshot-interval", "0", "--log-target", "console"])
        #expect(try SnapshotEndToEndTests.interactions(again) == 3)
    }

    @Test("A read-only folder: heraldd starts, answers reads, refuses changes; writable again, it takes them")
    func readOnlyFolder() throws {
        let disk = try SmallDisk()
        let first = try disk.start(["--snapshot-interval", "0", "--log-target", "console"])
        try SnapshotEndToEndTests.donate(["m1"], to: first)
        #expect(first.stop(signal: SIGTERM) == 0)

        try disk.remount(readOnly: true)
        let herald = try disk.start(["--snapshot-interval", "0.2", "--log-target", "console"])
        let startLine = Self.stderr(of: herald, once: "serving on")
        #expect(startLine.contains("Read-only file system") && startLine.contains("refusing changes"), "\(startLine)")
        #expect(try SnapshotEndToEndTests.interactions(herald) == 1)
        Self.expectRefusal(try Self.donation("m2", on: herald), folder: disk.path, cause: "Read-only file system")

        try disk.remount(readOnly: false)
        #expect(try Self.donateOnceTaken("m2", on: herald))
        #expect(herald.stop(signal: SIGTERM) == 0)
        // Its pid was recorded once the folder was writable, and cleared at its clean stop.
        let again = try disk.start(["--snapshot-interval", "0", "--log-target", "console"])
        let againLine = Self.stderr(of: again, once: "serving on")
        #expect(againLine.contains("serving on") && !againLine.contains("did not stop cleanly"), "\(againLine)")
        #expect(try SnapshotEndToEndTests.interactions(again) == 2)
    }
}
