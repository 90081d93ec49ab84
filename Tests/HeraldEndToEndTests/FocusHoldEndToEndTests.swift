import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 45, "a Focus held while something runs": `hold-focus` keeps a Focus on while the
/// holding connection lives; holds stack; the last one's end ends the Focus with one
/// digest; a change by hand wins; `heraldctl focus hold NAME -- COMMAND` holds it for the
/// command's life, even when heraldctl is killed.
@Suite("Focus holds, end to end")
struct FocusHoldEndToEndTests {
    static let holdBegan = "8e745fbbd7ee495ea2767ee64dc6b6a6"
    static let holdEnded = "b8eec5a30cdc451c90651f7dbb0edea2"

    /// Reads `get-focus` until `done` holds of it (a connection's close reaches heraldd
    /// after the client let go); the last read.
    static func focus(_ client: UnixSocketClient, until done: (JSONValue) -> Bool) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let read = try client.result("get-focus")
            if done(read) || Date() >= deadline { return read }
            usleep(20_000)
        }
    }

    static func holdCount(_ read: JSONValue) -> Int {
        read[pointer: "/holds"]?.arrayValue?.count ?? 0
    }

    @Test("heraldctl focus hold turns the Focus on; SIGKILL ends it with one digest, journaled")
    func killedHolderEndsTheFocus() throws {
        let journal = JournalReader.isAvailable
        let herald = try HeraldProcess(.standalone, arguments: journal ? ["--log-target", "journal"] : ["--log-target", "none"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()
        try client.result("define-focus", ["focus": ["name": "Presenting"]])
        let holder = try Heraldctl.start([
            "focus", "hold", "Presenting", "--reason", "demo", "--json", "--socket", herald.socketPath, "--", "sh", "-c",
            "echo child=$$; exec sleep 600",
        ])
        #expect(holder.waitForOutput(containing: "child="), "\(holder.finish(status: nil))")
        let child = holder.stdout.split(separator: "\n").first { $0.hasPrefix("child=") }.flatMap { Int32($0.dropFirst(6)) }
        defer { if let child { kill(child, SIGKILL) } }
        let held = try client.result("get-focus")
        #expect(held[pointer: "/active/name"] == "Presenting" && held[pointer: "/active/reason"] == "held", "\(held.compactText)")
        #expect(Self.holdCount(held) == 1 && held[pointer: "/holds/0/reason"] == "demo", "\(held.compactText)")
        #expect(held[pointer: "/holds/0/pid"] == .number(JSONNumber(Int(holder.process.pid))), "\(held.compactText)")
        #expect(held[pointer: "/holds/0/command"] == "heraldctl" && held[pointer: "/holds/0/overridden"] == false)
        let show = try Heraldctl.run(["focus", "show", "--socket", herald.socketPath])
        #expect(show.stdout.contains("“Presenting” is on, held") && show.stdout.contains("Held: “Presenting” by pid"), "\(show)")

        try FocusDigestEndToEndTests.message("m-1", from: "Ann", in: "c-ann", client: client)
        holder.process.signal(SIGKILL)
        _ = holder.process.waitForExit(timeout: 10)
        let digest = try #require(try NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 20))
        #expect(digest[pointer: "/focus"] == "Presenting" && digest[pointer: "/endedBy"] == "turnedOff", "\(digest.compactText)")
        #expect(digest[pointer: "/total"] == 1, "\(digest.compactText)")
        let after = try client.result("get-focus")
        #expect(after[pointer: "/active"] == .null && after[pointer: "/holds"] == nil, "\(after.compactText)")
        let again = (try? NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 1)) ?? nil
        #expect(again == nil, "one digest: \(String(describing: again))")

        guard journal else { return }
        let reader = JournalReader(pid: herald.process.pid)
        let began = try reader.waitForEntries(count: 1, matching: ["MESSAGE_ID=\(Self.holdBegan)"])
        #expect(began.first?.field("HERALD_FOCUS") == "Presenting" && began.first?.field("HERALD_HOLDER_COMMAND") == "heraldctl")
        #expect(began.first?.field("HERALD_HOLD_REASON") == "demo" && began.first?.field("HERALD_HOLDER_PID") == String(holder.process.pid))
        let ended = try reader.waitForEntries(count: 1, matching: ["MESSAGE_ID=\(Self.holdEnded)"])
        #expect(ended.count == 1 && ended.first?.field("HERALD_FOCUS_HOLD") == began.first?.field("HERALD_FOCUS_HOLD"))
        let off = try reader.waitForEntries(
            count: 1, matching: ["MESSAGE_ID=8e4b1c7d2a5f4093b6d8e1f0c3a7b925", "HERALD_FOCUS_CAUSE=released"])
        #expect(off.count == 1 && off.first?.field("HERALD_FOCUS_ON") == "0")
        let digests = try reader.waitForEntries(count: 1, matching: ["MESSAGE_ID=39483fd088444ea2a3b0c7efc497153e"])
        #expect(digests.count == 1 && digests.first?.field("HERALD_FOCUS") == "Presenting")
    }

    @Test("Holds stack: the Focus stays on until the last ends, one digest for the whole; the latest Focus held decides")
    func holdsStack() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let presenter = try herald.connect()
        _ = try presenter.call("subscribe-notifications", [:])
        let client = try herald.connect()
        try client.result("define-focus", ["focus": ["name": "Presenting"]])
        try client.result("define-focus", ["focus": ["name": "Deep"]])
        var first: UnixSocketClient? = try herald.connect()
        var second: UnixSocketClient? = try herald.connect()
        let one = try first!.result("hold-focus", ["name": "Presenting"])
        #expect(one[pointer: "/focus/name"] == "Presenting" && one[pointer: "/hold"]?.stringValue != nil, "\(one.compactText)")
        try second!.result("hold-focus", ["name": "Presenting", "reason": "call"])
        try FocusDigestEndToEndTests.message("m-1", from: "Ann", in: "c-ann", client: client)
        first = nil
        let one_left = try Self.focus(client) { Self.holdCount($0) == 1 }
        #expect(one_left[pointer: "/active/name"] == "Presenting" && Self.holdCount(one_left) == 1, "\(one_left.compactText)")
        try FocusDigestEndToEndTests.message("m-2", from: "Bob", in: "c-bob", client: client)
        second = nil
        let digest = try #require(try NotificationListEndToEndTests.next("focus-digest", from: presenter, timeout: 20))
        #expect(digest[pointer: "/focus"] == "Presenting" && digest[pointer: "/total"] == 2, "one activation: \(digest.compactText)")
        #expect(try client.result("get-focus")[pointer: "/active"] == .null)

        // Holds of two Focuses: the latest is on; when it ends, the one still held is back.
        var presenting: UnixSocketClient? = try herald.connect()
        var deep: UnixSocketClient? = try herald.connect()
        try presenting!.result("hold-focus", ["name": "Presenting"])
        try deep!.result("hold-focus", ["name": "Deep"])
        #expect(try client.result("get-focus")[pointer: "/active/name"] == "Deep")
        deep = nil
        let back = try Self.focus(client) { Self.holdCount($0) == 1 }
        #expect(back[pointer: "/active/name"] == "Presenting" && back[pointer: "/active/reason"] == "held", "\(back.compactText)")
        presenting = nil
        let off = try Self.focus(client) { Self.holdCount($0) == 0 }
        #expect(off[pointer: "/active"] == .null, "\(off.compactText)")
        _ = (first, second, presenting, deep)
    }

    @Test("A change by hand wins over a hold: it stays listed as overridden, and its end changes nothing")
    func byHandWins() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        try client.result("define-focus", ["focus": ["name": "Presenting"]])
        var holder: UnixSocketClient? = try herald.connect()
        try holder!.result("hold-focus", ["name": "Presenting"])
        let off = try Heraldctl.run(["focus", "off", "--socket", herald.socketPath])
        #expect(off.status == 0 && off.stdout.contains("Focus is off."), "\(off)")
        let read = try client.result("get-focus")
        #expect(read[pointer: "/active"] == .null && read[pointer: "/holds/0/overridden"] == true, "\(read.compactText)")
        let show = try Heraldctl.run(["focus", "show", "--socket", herald.socketPath])
        #expect(show.stdout.contains("No Focus is on.") && show.stdout.contains("overridden by hand"), "\(show)")
        // A hold taken after the change by hand wins again; by hand once more, Work stays past the holds.
        var later: UnixSocketClient? = try herald.connect()
        try later!.result("hold-focus", ["name": "Presenting"])
        #expect(try client.result("get-focus")[pointer: "/active/name"] == "Presenting")
        try client.result("set-focus", ["focus": ["name": "Work"]])
        holder = nil
        later = nil
        let after = try Self.focus(client) { Self.holdCount($0) == 0 }
        #expect(after[pointer: "/active/name"] == "Work" && after[pointer: "/active/reason"] == "manual", "\(after.compactText)")
        _ = (holder, later)
    }

    @Test("heraldctl focus hold runs the command, exits with its status, and the Focus is off after; usage and undefined Focus refused")
    func heraldctlHold() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        try client.result("define-focus", ["focus": ["name": "Presenting"]])
        let inside = try Heraldctl.run(
            [
                "--socket", herald.socketPath, "focus", "hold", "Presenting", "--", "sh", "-c",
                "heraldctl focus show --socket \"$0\"; exit 3",
                herald.socketPath,
            ], environment: ["PATH": URL(fileURLWithPath: Heraldctl.binaryPath).deletingLastPathComponent().path + ":/usr/bin:/bin"])
        #expect(inside.status == 3, "\(inside)")
        #expect(inside.stdout.contains("“Presenting” is on, held"), "held while the command ran: \(inside)")
        let off = try Self.focus(client) { Self.holdCount($0) == 0 }
        #expect(off[pointer: "/active"] == .null, "\(off.compactText)")

        // SIGTERM to heraldctl goes on to the command, whose end is heraldctl's: 128+15.
        let stopped = try Heraldctl.start([
            "focus", "hold", "Presenting", "--socket", herald.socketPath, "--", "sh", "-c", "echo started; exec sleep 600",
        ])
        #expect(stopped.waitForOutput(containing: "started"), "\(stopped.finish(status: nil))")
        stopped.process.signal(SIGTERM)
        let status = stopped.process.waitForExit(timeout: 20)
        #expect(status == 143, "\(stopped.finish(status: status))")
        #expect(try Self.focus(client) { Self.holdCount($0) == 0 }[pointer: "/active"] == .null)

        let noTerminator = try Heraldctl.run(["focus", "hold", "Presenting", "--socket", herald.socketPath])
        #expect(noTerminator.status == 2 && noTerminator.stderr.contains("after --"), "\(noTerminator)")
        let missing = try Heraldctl.run(["focus", "hold", "Presenting", "--socket", herald.socketPath, "--", "/nonexistent/program"])
        #expect(missing.status == 127 && missing.stderr.contains("cannot run"), "\(missing)")
        let undefined = try Heraldctl.run(["focus", "hold", "Nope", "--socket", herald.socketPath, "--", "true"])
        #expect(undefined.status == 1 && undefined.stderr.contains("no Focus named Nope"), "\(undefined)")
    }

    @Test("hold-focus refuses an undefined Focus, a long reason and a hold past the uid's limit, each naming the member")
    func refusals() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let client = try herald.connect()
        let undefined = try client.call("hold-focus", ["name": "Nope"])
        #expect(describeError(undefined) == "-32602 /name", "\(undefined.compactText)")
        #expect(undefined[pointer: "/error/data/reason"]?.stringValue?.contains("no Focus named Nope") == true)
        try client.result("define-focus", ["focus": ["name": "Presenting"]])
        let long = try client.call("hold-focus", ["name": "Presenting", "reason": .string(String(repeating: "r", count: 257))])
        #expect(describeError(long) == "-32602 /reason", "\(long.compactText)")
        for _ in 0..<16 { try client.result("hold-focus", ["name": "Presenting"]) }
        let past = try client.call("hold-focus", ["name": "Presenting"])
        #expect(describeError(past) == "-32602 /name" && past[pointer: "/error/data/limit"] == 16, "\(past.compactText)")
        let unknown = try client.call("release-focus-hold", ["hold": "no-such-hold"])
        #expect(describeError(unknown) == "-32602 /hold", "\(unknown.compactText)")
        let hold = try #require(try client.result("get-focus")[pointer: "/holds/0/hold"])
        let released = try client.call("release-focus-hold", ["hold": hold])
        #expect(released[pointer: "/result/focus/name"] == "Presenting", "15 holds still keep it on: \(released.compactText)")
        #expect(Self.holdCount(try client.result("get-focus")) == 15)
    }

    @Test(
        "A restart ends the holds as released, with one digest: from the change log, and from a snapshot taken while held",
        arguments: [false, true])
    func aRestartEndsTheHolds(snapshotWhileHeld: Bool) throws {
        let folder = ChangeLogKillEndToEndTests.StateFolder()
        let first = try folder.start(["--snapshot-interval", "0"])
        let client = try first.connect()
        try client.result("define-focus", ["focus": ["name": "Presenting"]])
        let holder = try first.connect()
        try holder.result("hold-focus", ["name": "Presenting"])
        try FocusDigestEndToEndTests.message("m-1", from: "Ann", in: "c-ann", client: client)
        if snapshotWhileHeld { try client.result("snapshot") }
        _ = first.stop(signal: SIGKILL)

        let second = try folder.start(["--snapshot-interval", "0"])
        let after = try second.connect()
        let focus = try after.result("get-focus")
        #expect(focus[pointer: "/active"] == .null && focus[pointer: "/holds"] == nil, "\(focus.compactText)")
        let digest = try after.result("get-focus-digest")
        #expect(digest[pointer: "/digest/focus"] == "Presenting" && digest[pointer: "/digest/total"] == 1, "\(digest.compactText)")
        #expect(digest[pointer: "/digest/endedBy"] == "turnedOff" && digest[pointer: "/running"] == nil, "\(digest.compactText)")
        _ = holder
    }
}
