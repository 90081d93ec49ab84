import Foundation
import HeraldTesting
import Testing

/// `heraldctl focus` and `heraldctl summary show` against the real heraldd: define with a
/// schedule, turn on by hand (defining, or as defined), show what is on and why (also what
/// `focus` and `summary` alone do), off.
@Suite("heraldctl focus and summary, end to end")
struct HeraldctlFocusEndToEndTests {
    private func ctl(_ herald: HeraldProcess, _ arguments: [String]) throws -> Heraldctl.Run {
        try Heraldctl.run(arguments + ["--socket", herald.socketPath])
    }

    @Test("define with a schedule, on, show, off; summary show")
    func focusCommands() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--snapshot-interval", "0"])
        let defined = try ctl(herald, ["focus", "define", "Sleep", "--days", "mon-fri", "--from", "22:00", "--to", "07:00", "--allow", "ann@example.org"])
        #expect(defined.status == 0, "\(defined)")
        #expect(defined.stdout.contains("scheduled:     mon,tue,wed,thu,fri 22:00–07:00"), "\(defined)")
        let on = try ctl(herald, ["focus", "on", "Work", "--allow", "ann@example.org", "--allow-app", "org.example.pager", "--until", "2099-01-01T18:00:00Z"])
        #expect(on.status == 0 && on.stdout.contains("Focus “Work” is on until 2099-01-01T18:00:00.000Z."), "\(on)")
        let shown = try ctl(herald, ["focus", "show"])
        #expect(shown.stdout.contains("Focus “Work” is on, turned on by hand until 2099-01-01T18:00:00.000Z."), "\(shown)")
        #expect(shown.stdout.contains("“Sleep”") && shown.stdout.contains("allows apps:   org.example.pager"), "\(shown)")
        // `focus` alone shows, as `notifications` alone lists.
        let bare = try ctl(herald, ["focus"])
        #expect(bare.status == 0 && bare.stdout == shown.stdout, "\(bare)")
        let json = try ctl(herald, ["focus", "show", "--json"])
        let read = json.jsonLines.first as? [String: Any] ?? [:]
        #expect((read["active"] as? [String: Any])?["reason"] as? String == "until", "\(json)")
        #expect((read["focuses"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Sleep", "Work"], "\(json)")
        // Without what it lets through, `on` turns on the Focus as defined: Sleep keeps Ann.
        let sleep = try ctl(herald, ["focus", "on", "Sleep"])
        #expect(sleep.stdout.contains("Focus “Sleep” is on.") && sleep.stdout.contains("allows people: ann@example.org"), "\(sleep)")
        let off = try ctl(herald, ["focus", "off"])
        #expect(off.status == 0 && off.stdout.contains("Focus is off."), "\(off)")
        let badDays = try ctl(herald, ["focus", "define", "X", "--days", "someday", "--from", "22:00", "--to", "07:00"])
        #expect(badDays.status == 2, "\(badDays)")
        // More than one schedule: repeated --schedule, after the one --from and --to give.
        let weekly = try ctl(
            herald,
            ["focus", "define", "Rest", "--days", "mon", "--from", "20:00", "--to", "21:00", "--schedule", "mon-fri 22:00-07:00",
             "--schedule", "sat,sun 23:30-09:00", "--schedule", "12:00-13:00"])
        #expect(weekly.status == 0, "\(weekly)")
        // Rest's lines come first; Sleep's, defined before, after them.
        let lines = weekly.stdout.split(separator: "\n").filter { $0.contains("scheduled:") }.prefix(4).map { String($0) }
        #expect(
            lines == [
                "  scheduled:     mon 20:00–21:00", "  scheduled:     mon,tue,wed,thu,fri 22:00–07:00",
                "  scheduled:     sat,sun 23:30–09:00", "  scheduled:     daily 12:00–13:00",
            ], "\(weekly)")
        let badSchedule = try ctl(herald, ["focus", "define", "X", "--schedule", "weekdays 22:00"])
        #expect(badSchedule.status == badDays.status && badSchedule.stderr.contains("--schedule"), "\(badSchedule)")
        let badTime = try ctl(herald, ["focus", "define", "X", "--schedule", "22:00-7pm"])
        #expect(badTime.status != 0 && badTime.stderr.contains("given by: --schedule/--from/--to/--days (its member /focus/schedules/0/end)"), "\(badTime)")
        _ = try ctl(herald, ["summary", "set", "08:00", "18:30", "--app", "org.example.news"])
        let summary = try ctl(herald, ["summary", "show"])
        #expect(summary.stdout.contains("Summary at 08:00, 18:30 for org.example.news"), "\(summary)")
        let bareSummary = try ctl(herald, ["summary"])
        #expect(bareSummary.stdout == summary.stdout, "\(bareSummary)")
    }
}
