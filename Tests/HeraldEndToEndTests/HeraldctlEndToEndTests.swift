import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// `heraldctl` against the real heraldd: each subcommand's words for people and its JSON for scripts.
@Suite("heraldctl, end to end")
struct HeraldctlEndToEndTests {
    private func daemon() throws -> HeraldProcess {
        try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--snapshot-interval", "0"])
    }

    private func ctl(_ herald: HeraldProcess, _ arguments: [String], input: String = "") throws -> Heraldctl.Run {
        try Heraldctl.run(arguments + ["--socket", herald.socketPath], input: input)
    }

    private func object(_ run: Heraldctl.Run) -> [String: Any] {
        run.jsonLines.first as? [String: Any] ?? [:]
    }

    @Test("status: reachable, version, uptime, connections, interactions, snapshot, journal; --json is stats")
    func status() throws {
        let herald = try daemon()
        let human = try ctl(herald, ["status"])
        #expect(human.status == 0, "\(human)")
        #expect(human.stdout.contains("heraldd 0.1.0 is running on \(herald.socketPath)"), "\(human)")
        for label in ["up:", "connections:", "interactions: 0", "notifications: 0 kept", "snapshot:     generation 0", "journal:"] {
            #expect(human.stdout.contains(label), "\(label): \(human)")
        }
        let json = try ctl(herald, ["status", "--json"])
        #expect(json.status == 0)
        #expect(json.jsonLines.count == 1, "\(json)")
        #expect(object(json)["uptimeSeconds"] != nil, "\(json)")
        // The client options may come before the subcommand too.
        let optionsFirst = try Heraldctl.run(["--socket", herald.socketPath, "--json", "status"])
        #expect(optionsFirst.status == 0 && optionsFirst.jsonLines.count == 1, "\(optionsFirst)")
        // HERALD_SOCKET is read when --socket is absent.
        let fromEnvironment = try Heraldctl.run(["status"], environment: ["HERALD_SOCKET": herald.socketPath])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment)")
    }

    @Test("--version of heraldctl and heraldd is the same string")
    func version() throws {
        let ctlVersion = try Heraldctl.run(["--version"])
        #expect(ctlVersion.status == 0)
        #expect(ctlVersion.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0", "\(ctlVersion)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heraldd-version-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let daemon = try ChildProcess(HeraldProcess.binaryPath, ["--version"], standardOutput: out)
        #expect(daemon.waitForExit(timeout: 30) == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test("donate then notify: the content and the delivery decision in words, and as JSON")
    func donateAndNotify() throws {
        let herald = try daemon()
        let donated = try ctl(herald, [
            "donate", "--app", "org.example.chat", "--from", "Ann Lee <ann@example.org>", "--conversation", "c-ann",
            "--text", "Lunch?", "--id", "m-17",
        ])
        #expect(donated.status == 0, "\(donated)")
        #expect(donated.stdout.hasPrefix("donated m-17 at "), "\(donated)")
        let call = try ctl(herald, ["donate", "--app", "org.example.chat", "--from", "+15551234", "--call", "video", "--json"])
        #expect(call.status == 0, "\(call)")
        #expect((object(call)["identifier"] as? String)?.isEmpty == false, "\(call)")

        let group = try ctl(herald, [
            "donate", "--app", "org.example.chat", "--from", "Bo <bo@example.org>", "--to", "Ann Lee <ann@example.org>",
            "--to", "+15550100", "--conversation", "c-trip", "--group-name", "Trip", "--text", "Train?", "--id", "m-18",
        ])
        #expect(group.status == 0, "\(group)")
        let groupNotified = try ctl(herald, ["notify", "--app", "org.example.chat", "--interaction", "m-18", "--body", "Train?"])
        #expect(groupNotified.stdout.contains("subtitle  Trip\n"), "\(groupNotified)")
        #expect(groupNotified.stdout.contains("from      Bo <bo@example.org> (a group)"), "\(groupNotified)")

        let notified = try ctl(herald, [
            "notify", "--app", "org.example.chat", "--interaction", "m-17", "--title", "New message", "--body", "Lunch?",
            "--level", "timeSensitive",
        ])
        #expect(notified.status == 0, "\(notified)")
        #expect(notified.stdout.contains("title     Ann Lee"), "\(notified)")
        #expect(notified.stdout.contains("from      Ann Lee <ann@example.org>"), "\(notified)")
        #expect(notified.stdout.contains("Delivered as an alert: sound, lights the screen, announced."), "\(notified)")
        #expect(notified.stdout.contains("because: Delivered as an alert, with sound and light, and announced. [delivered]"), "\(notified)")

        let json = try ctl(herald, ["notify", "--app", "org.example.chat", "--interaction", "m-17", "--body", "Lunch?", "--json"])
        let delivery = object(json)["delivery"] as? [String: Any]
        #expect(delivery?["presentation"] as? String == "alert", "\(json)")
        #expect((object(json)["content"] as? [String: Any])?["title"] as? String == "Ann Lee", "\(json)")
    }

    @Test("focus on silences a notification and says why; focus off; summary set and off")
    func focusAndSummary() throws {
        let herald = try daemon()
        let on = try ctl(herald, [
            "focus", "on", "Work", "--allow", "Bo <bo@example.org>", "--allow-app", "org.example.pager", "--until", "23:59",
        ])
        #expect(on.status == 0, "\(on)")
        #expect(on.stdout.contains("Focus “Work” is on until "), "\(on)")
        #expect(on.stdout.contains("allows people: Bo <bo@example.org>"), "\(on)")
        #expect(on.stdout.contains("allows apps:   org.example.pager"), "\(on)")

        let quiet = try ctl(herald, ["notify", "--app", "org.example.chat", "--body", "Lunch?"])
        #expect(quiet.stdout.contains("Delivered quietly: no sound, no light."), "\(quiet)")
        #expect(quiet.stdout.contains("because: The Focus “Work” is on and does not allow this notification"), "\(quiet)")
        #expect(quiet.stdout.contains("[silencedByFocus]"), "\(quiet)")
        // A rule that came close is named, with its cause for programs.
        _ = try ctl(herald, ["focus", "on", "Work", "--no-time-sensitive", "--until", "23:59"])
        let urgent = try ctl(herald, ["notify", "--app", "org.example.chat", "--body", "Now", "--level", "timeSensitive"])
        #expect(urgent.stdout.contains("does not allow Time Sensitive notifications"), "\(urgent)")
        #expect(urgent.stdout.contains("[silencedByFocus: timeSensitiveNotAllowed]"), "\(urgent)")

        let focusJSON = try ctl(herald, ["focus", "on", "Home", "--json"])
        #expect((object(focusJSON)["focus"] as? [String: Any])?["name"] as? String == "Home", "\(focusJSON)")
        let off = try ctl(herald, ["focus", "off"])
        #expect(off.status == 0 && off.stdout == "Focus is off.\n", "\(off)")
        let offJSON = try ctl(herald, ["focus", "off", "--json"])
        #expect(offJSON.stdout == "{\"focus\":null}\n", "\(offJSON)")

        let summary = try ctl(herald, ["summary", "set", "18:00", "08:00", "--app", "org.example.news"])
        #expect(summary.stdout.hasPrefix("Summary at 08:00, 18:00 for org.example.news\n  next: "), "\(summary)")
        let held = try ctl(herald, ["notify", "--app", "org.example.news", "--title", "Digest"])
        #expect(held.stdout.contains("Held for the scheduled summary, at "), "\(held)")
        #expect(held.stdout.contains("[heldForSummary]"), "\(held)")
        let summaryOff = try ctl(herald, ["summary", "off", "--json"])
        #expect(object(summaryOff)["times"] as? [Any] != nil, "\(summaryOff)")
    }

    @Test("authorization, capabilities, request-focus, suggest, delete, snapshot: words and JSON")
    func settings() throws {
        let herald = try daemon()
        let authorization = try ctl(herald, ["authorization", "allow", "org.example.chat"])
        #expect(authorization.stdout == "org.example.chat (uid 0): Focus authorization authorized\n", "\(authorization)")
        let shown = try ctl(herald, ["authorization", "show", "org.example.chat"])
        #expect(shown.stdout == "org.example.chat (uid 0): Focus authorization authorized\n", "\(shown)")
        let denied = try ctl(herald, ["authorization", "deny", "org.example.news", "--uid", "1000", "--json"])
        #expect(object(denied)["status"] as? String == "denied" && object(denied)["uid"] as? Int == 1000, "\(denied)")
        let restricted = try ctl(herald, ["authorization", "set", "org.example.news", "restricted", "--uid", "1000"])
        #expect(restricted.stdout == "org.example.news (uid 1000): Focus authorization restricted\n", "\(restricted)")
        let noRequests = try ctl(herald, ["authorization", "requests"])
        #expect(noRequests.stdout == "No app is waiting for an answer.\n", "\(noRequests)")
        let focus = try ctl(herald, ["request-focus", "--app", "org.example.chat"])
        #expect(focus.stdout == "org.example.chat: authorization authorized, not focused\n", "\(focus)")
        let focusJSON = try ctl(herald, ["request-focus", "--app", "org.example.mail", "--json"])
        #expect(object(focusJSON)["authorizationStatus"] as? String == "notDetermined", "\(focusJSON)")

        let capabilities = try ctl(herald, ["capabilities", "set", "org.example.alarm", "--critical", "--no-time-sensitive"])
        #expect(
            capabilities.stdout == "org.example.alarm (uid 0): communication on, timeSensitive off, critical on\n", "\(capabilities)")
        let capabilitiesJSON = try ctl(herald, ["capabilities", "show", "org.example.alarm", "--json"])
        #expect(object(capabilitiesJSON)["critical"] as? Bool == true, "\(capabilitiesJSON)")
        #expect(object(capabilitiesJSON)["authorizationStatus"] as? String == "notDetermined", "\(capabilitiesJSON)")
        let nothing = try Heraldctl.run(["capabilities", "set", "org.example.alarm", "--socket", herald.socketPath])
        #expect(nothing.status == 2, "\(nothing)")

        let none = try ctl(herald, ["suggest"])
        #expect(none.stdout.hasPrefix("No suggestions"), "\(none)")
        _ = try ctl(herald, ["donate", "--app", "org.example.chat", "--outgoing", "--to", "Cy <cy@example.org>", "--conversation", "c-cy"])
        let suggest = try ctl(herald, ["suggest", "--limit", "5"])
        #expect(suggest.stdout.hasPrefix("1. Cy <cy@example.org> — score 1"), "\(suggest)")
        let suggestJSON = try ctl(herald, ["suggest", "--json"])
        #expect((object(suggestJSON)["people"] as? [Any])?.count == 1, "\(suggestJSON)")

        let snapshot = try ctl(herald, ["snapshot"])
        #expect(snapshot.stdout.hasPrefix("snapshot generation 1: 1 interactions, "), "\(snapshot)")
        let deleted = try ctl(herald, ["delete", "--app", "org.example.chat", "--all"])
        #expect(deleted.stdout == "deleted 1 interactions\n", "\(deleted)")
        let deletedJSON = try ctl(herald, ["delete", "--app", "org.example.chat", "m-404", "--json"])
        #expect(deletedJSON.stdout == "{\"deleted\":0}\n", "\(deletedJSON)")
    }

    @Test("call with params as an argument and from standard input; methods from rpc.discover")
    func callAndMethods() throws {
        let herald = try daemon()
        let argument = try ctl(herald, ["call", "request-focus", #"{"app":"org.example.chat"}"#, "--json"])
        #expect(argument.status == 0, "\(argument)")
        #expect(object(argument)["authorizationStatus"] as? String == "notDetermined", "\(argument)")
        let stdin = try ctl(herald, ["call", "set-summary", "-"], input: #"{"apps":["org.example.news"],"times":["08:00"]}"#)
        #expect(stdin.status == 0, "\(stdin)")
        #expect(stdin.stdout.contains("\"08:00\""), "\(stdin)")
        let methods = try ctl(herald, ["methods"])
        for name in ["donate", "update-content", "request-focus", "stats", "snapshot", "rpc.discover"] {
            #expect(methods.stdout.split(separator: "\n").contains { $0.hasPrefix(name + " ") }, "\(name): \(methods)")
        }
        let methodsJSON = try ctl(herald, ["methods", "--json"])
        #expect((methodsJSON.jsonLines.first as? [Any])?.count == HeraldMethods.all.count, "\(methodsJSON)")
    }

    @Test("--json and call print the JSON Foundation's JSONSerialization printed: keys sorted its way, indented its way")
    func jsonTextAsBefore() throws {
        let herald = try daemon()
        // rpc.discover: a large answer that holds nothing that changes between two calls.
        let compact = try ctl(herald, ["call", "rpc.discover", "--json"])
        let pretty = try ctl(herald, ["call", "rpc.discover"])
        #expect(compact.status == 0 && pretty.status == 0, "\(compact)\n\(pretty)")
        let document = try JSONSerialization.jsonObject(with: Data(compact.stdout.utf8))
        let options: JSONSerialization.WritingOptions = [.fragmentsAllowed, .withoutEscapingSlashes, .sortedKeys]
        let foundationCompact = String(decoding: try JSONSerialization.data(withJSONObject: document, options: options), as: UTF8.self)
        let foundationPretty = String(
            decoding: try JSONSerialization.data(withJSONObject: document, options: options.union(.prettyPrinted)), as: UTF8.self)
        // Compared as one Bool each: a failing comparison of long texts is diffed for minutes.
        let sameCompact = compact.stdout == foundationCompact + "\n"
        let samePretty = pretty.stdout == foundationPretty + "\n"
        #expect(sameCompact, "\(compact.stdout.prefix(300))\n\(foundationCompact.prefix(300))")
        #expect(samePretty, "\(pretty.stdout.prefix(300))\n\(foundationPretty.prefix(300))")
    }

    @Test("A JSON-RPC error prints its message, reason and pointer, exit 1; a usage error exits 2")
    func errors() throws {
        let herald = try daemon()
        let missing = try ctl(herald, ["notify", "--app", "org.example.chat", "--interaction", "m-404", "--body", "?"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("heraldctl: update-content: Interaction not found (1001)"), "\(missing)")
        #expect(missing.stderr.contains("  reason: "), "\(missing)")
        // heraldctl names its own flag, not the member's JSON pointer (issue 45, item 4).
        #expect(missing.stderr.contains("  given by: --interaction"), "\(missing)")
        #expect(!missing.stderr.contains("pointer"), "\(missing)")
        #expect(missing.stdout.isEmpty)
        let badJSON = try ctl(herald, ["call", "donate", "{not json"])
        #expect(badJSON.status == 2, "\(badJSON)")
        let usage = try ctl(herald, ["donate", "--conversation", "c"])
        #expect(usage.status == 2, "\(usage)")
        #expect(usage.stderr.contains("--app"), "\(usage)")
        let unknown = try ctl(herald, ["frobnicate"])
        #expect(unknown.status == 2, "\(unknown)")
    }

    @Test("No socket: heraldd is not running there, how to start it, exit 69")
    func missingSocket() throws {
        let run = try Heraldctl.run(["status", "--socket", "/nonexistent/herald.sock"])
        #expect(run.status == 69, "\(run)")
        #expect(run.stderr.contains("heraldd is not running there: there is no socket at /nonexistent/herald.sock"), "\(run)")
        #expect(run.stderr.contains("systemctl start herald.socket"), "\(run)")
        #expect(run.stderr.contains("make run"), "\(run)")
    }

    @Test("inspect-snapshot reads a file heraldd wrote, and reports a damaged one")
    func inspectSnapshot() throws {
        let herald = try daemon()
        _ = try ctl(herald, ["donate", "--app", "org.example.chat", "--from", "ann@example.org", "--conversation", "c", "--id", "m-1"])
        let notified = try ctl(herald, ["notify", "--app", "org.example.chat", "--identifier", "n-1", "--title", "Lunch at noon"])
        #expect(notified.status == 0, "\(notified)")
        let written = try ctl(herald, ["snapshot", "--json"])
        let path = try #require(object(written)["path"] as? String, "\(written)")

        let human = try Heraldctl.run(["inspect-snapshot", path])
        #expect(human.status == 0, "\(human)")
        for line in ["Herald snapshot, format version 7, sectioned binary encoding", "  generation:   1", "  interactions: 1", "  checksums:    good"] {
            #expect(human.stdout.contains(line), "\(line): \(human)")
        }
        let json = try Heraldctl.run(["inspect-snapshot", path, "--json"])
        #expect(json.status == 0, "\(json)")
        #expect(json.stdout.contains("m-1") && json.stdout.contains("ann@example.org"), "\(json)")
        #expect(json.jsonLines.first is [String: Any], "\(json)")
        // The notification list, kept as records, shown as before under `notifications`.
        let listed = ((json.jsonLines.first as? [String: Any])?["notifications"] as? [String: Any])?["notifications"] as? [[String: Any]]
        let notification = listed?.first?["notification"] as? [String: Any]
        #expect(notification?["identifier"] as? String == "n-1", "\(json)")
        #expect((notification?["content"] as? [String: Any])?["title"] as? String == "Lunch at noon", "\(json)")
        // Times to the millisecond, as heraldd's answers write them; none to the second.
        #expect(json.stdout.range(of: #"T\d{2}:\d{2}:\d{2}\.\d{3}Z""#, options: .regularExpression) != nil, "\(json)")
        #expect(json.stdout.range(of: #"T\d{2}:\d{2}:\d{2}Z""#, options: .regularExpression) == nil, "\(json)")

        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 3] ^= 0xFF
        let damaged = herald.folder.appendingPathComponent("damaged.snapshot")
        try Data(bytes).write(to: damaged)
        let bad = try Heraldctl.run(["inspect-snapshot", damaged.path])
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.stdout.contains("  generation:   1"), "\(bad)")
        #expect(bad.stdout.contains("checksums:    BAD"), "\(bad)")
        #expect(bad.stderr.contains("is damaged"), "\(bad)")
        // Not a usage error: the file is absent (66, EX_NOINPUT), with the path and the cause.
        let absent = try Heraldctl.run(["inspect-snapshot", damaged.path + ".absent"])
        #expect(absent.status == 66, "\(absent)")
        #expect(absent.stderr.contains("cannot open \(damaged.path).absent: No such file or directory (errno 2)."), "\(absent)")
        // A folder names what to give instead: the state folder's snapshot.
        let stateFolder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let folder = try Heraldctl.run(["inspect-snapshot", stateFolder])
        #expect(folder.status == 66, "\(folder)")
        #expect(folder.stderr.contains("\(stateFolder) is a folder: give a snapshot file or a change log segment"), "\(folder)")
        #expect(folder.stderr.contains("its snapshot: heraldctl inspect-snapshot \(path)"), "\(folder)")
        #expect(!folder.stderr.contains("Inappropriate ioctl"), "\(folder)")
        // A file that opens but does not read (74, EX_IOERR): the kernel answers EIO at offset 0.
        let unreadable = try Heraldctl.run(["inspect-snapshot", "/proc/self/mem"])
        #expect(unreadable.status == 74, "\(unreadable)")
        #expect(unreadable.stderr.contains("cannot read /proc/self/mem after 0 bytes: Input/output error (errno 5)."), "\(unreadable)")
    }

    @Test("notify --identifier, notifications list and remove, summary deliver, watch --notifications: words and JSON")
    func notificationList() throws {
        let herald = try daemon()
        let watching = try Heraldctl.start(["watch", "--notifications", "--socket", herald.socketPath])
        #expect(watching.waitForOutput(containing: "watching notifications of uid \(getuid())"), "\(watching.stdout)\(watching.stderr)")

        let first = try ctl(herald, ["notify", "--app", "org.example.chat", "--identifier", "n-1", "--title", "Lunch?"])
        #expect(first.status == 0 && first.stdout.hasPrefix("notification n-1\n"), "\(first)")
        #expect(watching.waitForOutput(containing: "delivered uid \(getuid()): org.example.chat n-1 (alert)"), "\(watching.stdout)")
        _ = try ctl(herald, ["summary", "set", "23:59:59", "--app", "org.example.news"])
        let held = try ctl(herald, ["notify", "--app", "org.example.news", "--identifier", "d-1", "--title", "Digest"])
        #expect(held.stdout.contains("Held for the scheduled summary"), "\(held)")
        let generated = try ctl(herald, ["notify", "--app", "org.example.chat", "--title", "Hi", "--json"])
        let generatedID = object(generated)["identifier"] as? String ?? ""
        #expect(generatedID.count == 36 && generatedID == generatedID.lowercased(), "\(generated)")

        let list = try ctl(herald, ["notifications", "list", "--app", "org.example.chat"])
        #expect(list.status == 0, "\(list)")
        let lines = list.stdout.split(separator: "\n").map(String.init)
        // Newest first: the generated one, then n-1 with its title.
        #expect(lines.first?.hasPrefix("\(generatedID) org.example.chat delivered ") == true, "\(list)")
        #expect(lines.contains { $0.hasPrefix("n-1 org.example.chat delivered ") } && lines.contains("  Lunch?"), "\(list)")
        // `notifications` alone lists.
        let bare = try ctl(herald, ["notifications", "--app", "org.example.chat"])
        #expect(bare.status == 0 && bare.stdout == list.stdout, "\(bare)")
        let scheduled = try ctl(herald, ["notifications", "list", "--app", "org.example.news", "--state", "scheduled", "--json"])
        let held1 = (object(scheduled)["notifications"] as? [[String: Any]])?.map { $0["identifier"] as? String }
        #expect(held1 == ["d-1"], "\(scheduled)")

        let delivered = try ctl(herald, ["summary", "deliver"])
        #expect(delivered.stdout == "Delivered 1 scheduled notification.\n", "\(delivered)")
        #expect(watching.waitForOutput(containing: "summary uid \(getuid()): 1 notification(s): org.example.news d-1"), "\(watching.stdout)")

        let removed = try ctl(herald, ["notifications", "remove", "--app", "org.example.chat", "n-1", "no-such"])
        #expect(removed.stdout == "Removed 1 notification.\n", "\(removed)")
        #expect(watching.waitForOutput(containing: "removed uid \(getuid()) org.example.chat: n-1"), "\(watching.stdout)")
        let all = try ctl(herald, ["notifications", "remove", "--app", "org.example.chat", "--all", "--json"])
        #expect(object(all)["removed"] as? Int == 1, "\(all)")
        let empty = try ctl(herald, ["notifications", "list", "--app", "org.example.chat"])
        #expect(empty.stdout == "No notifications.\n", "\(empty)")
        let usage = try ctl(herald, ["notifications", "remove", "--app", "org.example.chat"])
        #expect(usage.status == 2, "\(usage)")
        watching.process.signal(SIGINT)
        #expect(watching.process.waitForExit(timeout: 10) == 0)
    }

    @Test("watch prints a focus-changed line as it happens, and SIGINT exits 0")
    func watch() throws {
        let herald = try daemon()
        _ = try ctl(herald, ["authorization", "allow", "org.example.chat"])
        let watching = try Heraldctl.start(["watch", "--app", "org.example.chat", "--socket", herald.socketPath])
        #expect(watching.waitForOutput(containing: "watching org.example.chat: not focused"), "\(watching.stdout)\(watching.stderr)")
        _ = try ctl(herald, ["focus", "on", "Work"])
        #expect(watching.waitForOutput(containing: "focus-changed org.example.chat: focused (a Focus silences it)"), "\(watching.stdout)")
        _ = try ctl(herald, ["focus", "off"])
        #expect(watching.waitForOutput(containing: "focus-changed org.example.chat: not focused"), "\(watching.stdout)")
        watching.process.signal(SIGINT)
        #expect(watching.process.waitForExit(timeout: 10) == 0)

        let json = try Heraldctl.start(["watch", "--app", "org.example.chat", "--json", "--socket", herald.socketPath])
        #expect(json.waitForOutput(containing: "\"authorizationStatus\":\"authorized\""), "\(json.stdout)\(json.stderr)")
        _ = try ctl(herald, ["focus", "on", "Work"])
        #expect(json.waitForOutput(containing: "\"method\":\"focus-changed\""), "\(json.stdout)\(json.stderr)")
        json.process.signal(SIGINT)
        #expect(json.process.waitForExit(timeout: 10) == 0)
    }
}

/// heraldctl as an unprivileged uid (65534) through setpriv: permission denied on the socket, and stats refused.
@Suite("heraldctl as another uid", .enabled(if: getuid() == 0, "needs root to run as another uid"))
struct HeraldctlPermissionEndToEndTests {
    private let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    @Test("A socket of a group the caller is not in: the group, how to join it (never root's), exit 69")
    func permissionDenied() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--socket-mode", "0660"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        let run = try Heraldctl.run(["status", "--socket", herald.socketPath], prefix: nobody)
        #expect(run.status == 69, "\(run)")
        #expect(run.stderr.contains("permission denied on \(herald.socketPath): the socket \(herald.socketPath) belongs to group root"), "\(run)")
        #expect(!run.stderr.contains("usermod"), "joining root's group is never the advice: \(run)")
        #expect(run.stderr.contains("ask an administrator to check"), "\(run)")

        // The socket as herald.socket makes it, of a group other than root: that group is named.
        let daemonGroup = try #require(getgrnam("daemon")).pointee.gr_gid
        #expect(chown(herald.socketPath, uid_t.max, daemonGroup) == 0)
        let member = try Heraldctl.run(["status", "--socket", herald.socketPath], prefix: nobody)
        #expect(member.status == 69, "\(member)")
        #expect(member.stderr.contains("the socket \(herald.socketPath) belongs to group daemon (mode 660), and you are not in it"), "\(member)")
        #expect(member.stderr.contains("sudo usermod -aG daemon"), "\(member)")
    }

    @Test("status as a non-administrator is their own view, exit 0; snapshot says it is for administrators, exit 1")
    func notAdministrator() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--socket-mode", "0666"])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        let run = try Heraldctl.run(["status", "--socket", herald.socketPath], prefix: nobody)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix("heraldd 0.1.0 is running on \(herald.socketPath)\n  your view (uid 65534)"), "\(run)")
        let snapshot = try Heraldctl.run(["snapshot", "--socket", herald.socketPath], prefix: nobody)
        #expect(snapshot.status == 1, "\(snapshot)")
        #expect(snapshot.stderr.contains("snapshot is for administrators: run heraldctl as root"), "\(snapshot)")
        let allowed = try Heraldctl.run(["request-focus", "--app", "org.example.chat", "--socket", herald.socketPath], prefix: nobody)
        #expect(allowed.status == 0, "\(allowed)")
    }

    @Test("inspect-snapshot of a file the caller may not read: the path and the cause, exit 66")
    func inspectUnreadableSnapshot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-unreadable-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let file = folder.appendingPathComponent("state.snapshot").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("HERALD".utf8), attributes: [.posixPermissions: 0o600]))
        let run = try Heraldctl.run(["inspect-snapshot", file], prefix: nobody)
        #expect(run.status == 66, "\(run)")
        #expect(run.stderr.contains("cannot open \(file): Permission denied (errno 13)."), "\(run)")
    }
}
