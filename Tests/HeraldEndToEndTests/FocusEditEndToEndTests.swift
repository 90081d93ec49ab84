import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 28: changing one setting of a Focus keeps the rest, through `set-focus` and
/// `heraldctl focus on`; `get-focus` and `heraldctl focus show` say when a choice by hand
/// overrides a schedule, and until when. heraldd runs in UTC, so that schedule times are
/// read as the test writes them.
@Suite("Focus edits that keep what they don't name, end to end")
struct FocusEditEndToEndTests {
    private func daemon() throws -> HeraldProcess {
        try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--snapshot-interval", "0"], environment: ["TZ": "UTC"])
    }

    private func ctl(_ herald: HeraldProcess, _ arguments: [String]) throws -> Heraldctl.Run {
        try Heraldctl.run(arguments + ["--socket", herald.socketPath])
    }

    @Test("heraldctl focus on NAME --switch keeps the people and apps; an empty list is emptied only when asked")
    func oneSwitchKeepsTheRest() throws {
        let herald = try daemon()
        let on = try ctl(herald, ["focus", "on", "Work", "--allow", "Bo Berg <bo@example.org>", "--allow-app", "org.example.pager"])
        #expect(on.status == 0 && on.stdout.contains("allows people: Bo Berg <bo@example.org>"), "\(on)")
        let again = try ctl(herald, ["focus", "on", "Work", "--no-repeated-calls"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("allows people: Bo Berg <bo@example.org>"), "\(again)")
        #expect(again.stdout.contains("allows apps:   org.example.pager"), "\(again)")
        #expect(again.stdout.contains("lets through:  Time Sensitive\n"), "\(again)")
        let emptied = try ctl(herald, ["focus", "on", "Work", "--allow-nobody", "--json"])
        let focus = (emptied.jsonLines.first as? [String: Any])?["focus"] as? [String: Any]
        #expect((focus?["allowedPeople"] as? [Any])?.isEmpty == true, "\(emptied)")
        #expect(focus?["allowedApps"] as? [String] == ["org.example.pager"], "\(emptied)")
        #expect(focus?["allowRepeatedCalls"] as? Bool == false, "\(emptied)")
        let both = try ctl(herald, ["focus", "on", "Work", "--allow-nobody", "--allow", "cy@example.org"])
        #expect(both.status != 0 && both.stderr.contains("--allow or --allow-nobody"), "\(both)")
    }

    @Test("set-focus with a Focus of the same name is a partial update; the app it kept still breaks through")
    func setFocusIsAPartialUpdate() throws {
        let herald = try daemon()
        let client = try herald.connect()
        try client.result("set-focus", ["focus": ["name": "Work", "allowedApps": ["org.example.pager"]]])
        let changed = try client.call("set-focus", ["focus": ["name": "Work", "allowTimeSensitive": false]])
        #expect(changed[pointer: "/result/focus/allowedApps"] == ["org.example.pager"], "\(changed.compactText)")
        #expect(changed[pointer: "/result/focus/allowTimeSensitive"] == false)
        let paged = try client.call("update-content", ["app": "org.example.pager", "content": ["title": "Paged"]])
        #expect(describeDelivery(paged) == "alert sound lightsScreen breaksThroughFocus [appAllowedByFocus, delivered]")
        let emptied = try client.call("set-focus", ["focus": ["name": "Work", "allowedApps": []]])
        #expect(emptied[pointer: "/result/focus/allowedApps"] == [], "\(emptied.compactText)")
        #expect(emptied[pointer: "/result/focus/allowTimeSensitive"] == false)
        let wrong = try client.call("set-focus", ["focus": ["name": "Work", "allowedApps": "org.example.pager"]])
        #expect(describeError(wrong) == "-32602 /focus/allowedApps", "\(wrong.compactText)")
    }

    @Test("Off by hand during a scheduled window: get-focus and focus show name the schedule overridden and until when")
    func anOverrideIsShown() throws {
        let herald = try daemon()
        let client = try herald.connect()
        let start = NotificationListEndToEndTests.clockTime(in: -3600)
        let end = NotificationListEndToEndTests.clockTime(in: 3600)
        try client.result("define-focus", ["focus": ["name": "Sleep", "schedules": [["start": .string(start), "end": .string(end)]]]])
        let scheduled = try client.result("get-focus")
        #expect(scheduled[pointer: "/active/name"] == "Sleep" && scheduled[pointer: "/override"] == nil, "\(scheduled.compactText)")
        let windowEnd = scheduled[pointer: "/active/endsAt"]

        try client.result("set-focus", ["focus": nil])
        let read = try client.result("get-focus")
        #expect(read[pointer: "/active"] == .null, "\(read.compactText)")
        #expect(read[pointer: "/override/scheduledFocus"] == "Sleep", "\(read.compactText)")
        #expect(read[pointer: "/override/endsAt"] == windowEnd, "\(read.compactText)")
        let show = try ctl(herald, ["focus", "show"])
        #expect(show.stdout.hasPrefix("No Focus is on.\nTurned off by hand over the schedule of “Sleep” until "), "\(show)")
    }
}
