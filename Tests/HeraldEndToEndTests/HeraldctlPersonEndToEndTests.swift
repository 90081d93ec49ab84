import Foundation
import HeraldTesting
import Testing

/// Issue 45, items 3, 4, 5 and 8: heraldctl as a person (uid 1000, never an administrator)
/// against the real heraldd — a name for `--allow`, clearing every app's notifications,
/// `--group-name` without `--to`, a typo'd conversation; and errors that name heraldctl's
/// flags rather than JSON pointers.
@Suite("heraldctl as a person, end to end", .enabled(if: getuid() == 0, "needs root to act as other uids"))
struct HeraldctlPersonEndToEndTests {
    static let chat = "org.example.chat"

    /// heraldctl as `uid` (and gid `uid`), no supplementary groups.
    private func ctl(_ herald: HeraldProcess, _ arguments: [String], uid: Int = 1000) throws -> Heraldctl.Run {
        try Heraldctl.run(
            arguments + ["--socket", herald.socketPath], prefix: ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"])
    }

    private func allowedHandles(_ herald: HeraldProcess) throws -> [String] {
        let shown = try ctl(herald, ["focus", "show", "--json"])
        let focuses = (shown.jsonLines.first as? [String: Any])?["focuses"] as? [[String: Any]] ?? []
        let people = focuses.first?["allowedPeople"] as? [[String: Any]] ?? []
        return people.compactMap { ($0["handle"] as? [String: Any])?["value"] as? String }
    }

    @Test("focus on --allow NAME: a name is looked up among the person's own people; a handle passes as written")
    func allowByName() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: ["--log-target", "none", "--snapshot-interval", "0"])
        for person in ["Ann Lee <ann@example.org>", "Ann Park <ann.park@example.org>", "Bo Berg <+15550101>"] {
            let sent = try ctl(herald, ["donate", "--app", Self.chat, "--outgoing", "--to", person, "--conversation", "c-1", "--text", "Hi"])
            #expect(sent.status == 0, "\(sent)")
        }

        let byName = try ctl(herald, ["focus", "on", "Work", "--allow", "Ann Lee"])
        #expect(byName.status == 0, "\(byName)")
        #expect(byName.stdout.hasPrefix("--allow \"Ann Lee\" is Ann Lee <ann@example.org>.\n"), "\(byName)")
        #expect(try allowedHandles(herald) == ["ann@example.org"])

        // One word of a name, any case, and --json keeps the choice off standard output.
        let byGivenName = try ctl(herald, ["focus", "on", "Work", "--allow", "bo", "--json"])
        #expect(byGivenName.status == 0 && byGivenName.jsonLines.count == 1, "\(byGivenName)")
        #expect(byGivenName.stderr.contains("--allow \"bo\" is Bo Berg <+15550101>."), "\(byGivenName)")
        #expect(try allowedHandles(herald) == ["+15550101"])

        // A name that fits two people is refused with both.
        let ambiguous = try ctl(herald, ["focus", "on", "Work", "--allow", "Ann"])
        #expect(ambiguous.status == 2, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("--allow \"Ann\" names 2 people Herald knows"), "\(ambiguous)")
        #expect(ambiguous.stderr.contains("--allow \"Ann Lee <ann@example.org>\""), "\(ambiguous)")
        #expect(ambiguous.stderr.contains("--allow \"Ann Park <ann.park@example.org>\""), "\(ambiguous)")
        #expect(try allowedHandles(herald) == ["+15550101"], "nothing changed")

        // A name with a space that fits no one is refused; a single word is a typed handle.
        let nobody = try ctl(herald, ["focus", "on", "Work", "--silence", "Zed Zee"])
        #expect(nobody.status == 2 && nobody.stderr.contains("--silence \"Zed Zee\": no one Herald knows is named so"), "\(nobody)")
        let typed = try ctl(herald, ["focus", "on", "Work", "--allow", "@zed:example.org", "--allow", "ann.park@example.org"])
        #expect(typed.status == 0 && !typed.stdout.contains("--allow"), "\(typed)")
        #expect(try allowedHandles(herald) == ["@zed:example.org", "ann.park@example.org"])

        // Another person's people are not this one's.
        let otherPerson = try ctl(herald, ["focus", "on", "Work", "--allow", "Ann Lee"], uid: 1001)
        #expect(otherPerson.status == 2, "\(otherPerson)")
        let help = try ctl(herald, ["focus", "on", "--help"])
        let helpWords = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(helpWords.contains("looked up among the people you messaged or called"), "\(help)")
    }

    @Test("notifications remove --all clears every app's; undo brings them all back; errors name the flags")
    func removeEveryApp() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: ["--log-target", "none", "--snapshot-interval", "0"])
        for (app, identifier) in [(Self.chat, "n-1"), ("org.example.mail", "n-2")] {
            let posted = try ctl(herald, ["notify", "--app", app, "--identifier", identifier, "--title", "Hi"])
            #expect(posted.status == 0, "\(posted)")
        }
        let theirs = try ctl(herald, ["notify", "--app", Self.chat, "--identifier", "n-3", "--title", "Hi"], uid: 1001)
        #expect(theirs.status == 0, "\(theirs)")

        let removed = try ctl(herald, ["notifications", "remove", "--all"])
        #expect(removed.status == 0 && removed.stdout == "Removed 2 notifications.\n", "\(removed)")
        #expect(try ctl(herald, ["notifications", "list"]).stdout == "No notifications.\n")
        #expect(try ctl(herald, ["notifications", "list"], uid: 1001).stdout.contains("n-3 "), "another uid's stay")
        let undone = try ctl(herald, ["notifications", "undo"])
        #expect(undone.stdout == "Restored 2 notifications.\n", "\(undone)")
        let listed = try ctl(herald, ["notifications", "list"]).stdout
        #expect(listed.contains("n-1 \(Self.chat) ") && listed.contains("n-2 org.example.mail "), "\(listed)")

        // Identifiers need their app: said before asking heraldd, naming the flag.
        let unnamed = try ctl(herald, ["notifications", "remove", "n-1"])
        #expect(unnamed.status == 2 && unnamed.stderr.contains("--app"), "\(unnamed)")
        // heraldd's errors name heraldctl's flag, not the member's pointer.
        let badApp = try ctl(herald, ["notifications", "remove", "--app", "no app", "--all"])
        #expect(badApp.status == 1 && badApp.stderr.contains("  given by: --app"), "\(badApp)")
        #expect(!badApp.stderr.contains("pointer"), "\(badApp)")
        let badText = try ctl(herald, ["donate", "--app", Self.chat, "--from", "ann@example.org", "--conversation", "", "--text", "Hi"])
        #expect(badText.status == 1 && badText.stderr.contains("  given by: --conversation"), "\(badText)")
        for (arguments, flag) in [
            (["notifications", "snooze", Self.chat, "n-1", "--for", "40d"], "--for"),
            (["summary", "set", "8:00", "--app", "org.example.news"], "TIME (its member /times/0)"),
            (["focus", "define", "Sleep", "--schedule", "mon 25:00-07:00"], "--schedule/--from/--to/--days (its member /focus/schedules/0/start)"),
        ] {
            let refused = try ctl(herald, arguments)
            #expect(refused.status == 1 && refused.stderr.contains("  given by: \(flag)\n") && !refused.stderr.contains("pointer:"), "\(refused)")
        }
    }

    @Test("donate --group-name without --to is refused, and --help says why")
    func groupNameNeedsRecipients() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: ["--log-target", "none", "--snapshot-interval", "0"])
        let lonely = try ctl(herald, [
            "donate", "--app", Self.chat, "--from", "Bo <bo@example.org>", "--conversation", "c-trip", "--group-name", "Trip planning",
        ])
        #expect(lonely.status == 2, "\(lonely)")
        #expect(lonely.stderr.contains("--group-name needs the group's other people with --to"), "\(lonely)")
        let help = try ctl(herald, ["donate", "--help"])
        let helpWords = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(helpWords.contains("--group-name needs at least one --to"), "\(help)")
        let group = try ctl(herald, [
            "donate", "--app", Self.chat, "--from", "Bo <bo@example.org>", "--to", "ann@example.org", "--conversation", "c-trip",
            "--group-name", "Trip planning",
        ])
        #expect(group.status == 0, "\(group)")
    }

    @Test("notifications list shows conversations; conversations mute warns about one no notification names")
    func conversationTypo() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: ["--log-target", "none", "--snapshot-interval", "0"])
        let donated = try ctl(herald, [
            "donate", "--app", Self.chat, "--from", "Bo <bo@example.org>", "--conversation", "c-trip", "--text", "Train?", "--id", "m-1",
        ])
        #expect(donated.status == 0, "\(donated)")
        let notified = try ctl(herald, ["notify", "--app", Self.chat, "--interaction", "m-1", "--identifier", "n-1", "--body", "Train?"])
        #expect(notified.status == 0, "\(notified)")
        let list = try ctl(herald, ["notifications", "list"])
        #expect(list.stdout.contains("n-1 \(Self.chat) delivered ") && list.stdout.contains("conversation c-trip\n"), "\(list)")

        let typo = try ctl(herald, ["conversations", "mute", Self.chat, "c-tirp", "--forever"])
        #expect(typo.status == 0, "\(typo)")
        #expect(
            typo.stderr.contains("warning: no notification of \(Self.chat) names conversation c-tirp (those it has name c-trip)"),
            "\(typo)")
        let right = try ctl(herald, ["conversations", "mute", Self.chat, "c-trip", "--forever"])
        #expect(right.status == 0 && right.stderr.isEmpty, "\(right)")
        let priority = try ctl(herald, ["conversations", "priority", Self.chat, "c-nope"])
        #expect(priority.stderr.contains("names conversation c-nope"), "\(priority)")
    }

    @Test("status as a person: their own figures, said to be theirs, never another uid's; an administrator's whole")
    func statusAsAPerson() throws {
        let herald = try HeraldProcess.openToEveryone(arguments: ["--log-target", "none", "--snapshot-interval", "0"])
        for identifier in ["n-1", "n-2"] {
            let posted = try ctl(herald, ["notify", "--app", Self.chat, "--identifier", identifier, "--title", "Hi"])
            #expect(posted.status == 0, "\(posted)")
        }
        for identifier in ["n-a", "n-b", "n-c"] {
            let posted = try ctl(herald, ["notify", "--app", "org.example.mail", "--identifier", identifier, "--title", "Invoice"], uid: 1001)
            #expect(posted.status == 0, "\(posted)")
        }
        let focus = try ctl(herald, ["focus", "on", "Work"], uid: 1001)
        #expect(focus.status == 0, "\(focus)")

        let mine = try ctl(herald, ["status"])
        #expect(mine.status == 0, "\(mine)")
        #expect(mine.stdout.contains("  your view (uid 1000): only your own figures; an administrator sees the whole daemon"), "\(mine)")
        #expect(mine.stdout.contains("  notifications: 2 kept, 2 of them delivered"), "\(mine)")
        #expect(mine.stdout.contains("  Focus:         none on"), "\(mine)")
        #expect(!mine.stdout.contains("snapshot:") && !mine.stdout.contains("journal:"), "no daemon-wide figures: \(mine)")
        let theirs = try ctl(herald, ["status"], uid: 1001)
        #expect(theirs.stdout.contains("  notifications: 3 kept, 3 of them delivered"), "\(theirs)")
        #expect(theirs.stdout.contains("  Focus:         Work (manual)"), "\(theirs)")

        let json = try ctl(herald, ["status", "--json"])
        let object = try #require(json.jsonLines.first as? [String: Any], "\(json)")
        #expect(object["view"] as? String == "person" && object["uid"] as? Int == 1000, "\(json)")
        #expect(object["notifications"] as? Int == 2 && object["focus"] is NSNull, "\(json)")
        for member in ["methods", "limits", "journal", "snapshot"] { #expect(object[member] == nil, "\(member): \(json)") }
        #expect((object["connections"] as? [String: Any])?.keys.sorted() == ["open"], "\(json)")

        let whole = try Heraldctl.run(["status", "--socket", herald.socketPath])
        #expect(whole.status == 0 && !whole.stdout.contains("your view"), "\(whole)")
        #expect(whole.stdout.contains("notifications: 5 kept"), "\(whole)")
    }
}
