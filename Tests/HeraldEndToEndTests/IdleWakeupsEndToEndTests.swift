import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 46, item 1: at rest, heraldd and herald-notify sleep until something is due, and
/// nothing polls. Each test counts the context switches of every thread of the process over
/// a window (``window``); the goal is at most one wakeup a minute beyond the watchdog's pings
/// (none here: no `WATCHDOG_USEC`), so at most one in the window.
@Suite("Idle wakeups, end to end")
struct IdleWakeupsEndToEndTests {
    static let chat = "org.example.chat"
    static let news = "org.example.news"
    /// Long enough that a once-a-second timer would show 20 times over; short enough for CI.
    static let window: Double = 20
    /// What is allowed in ``window``: the goal's one a minute, rounded up.
    static let allowed = 1

    /// Puts a Focus schedule, a summary time, a snooze and a mute in `client`'s state, each an
    /// hour or more away.
    static func pendWork(_ client: UnixSocketClient) throws {
        try client.result(
            "define-focus",
            [
                "focus": [
                    "name": "Evening",
                    "schedules": [
                        [
                            "start": .string(NotificationListEndToEndTests.clockTime(in: 3600)),
                            "end": .string(NotificationListEndToEndTests.clockTime(in: 7200)),
                        ]
                    ],
                ]
            ])
        try client.result(
            "set-summary", ["apps": [.string(news)], "times": [.string(NotificationListEndToEndTests.clockTime(in: 3 * 3600))]])
        try client.result("update-content", ["app": .string(news), "identifier": "n-1", "content": ["title": "Held for the summary"]])
        try client.result("update-content", ["app": .string(chat), "identifier": "m-1", "content": ["title": "Ann", "body": "Later"]])
        try client.result("snooze-notification", ["app": .string(chat), "identifier": "m-1", "seconds": 3600])
        try client.result("set-conversation", ["app": .string(chat), "conversationIdentifier": "c-1", "mute": ["seconds": 3600]])
        let listed = try client.result("list-notifications", [:])
        let states = Set((listed[pointer: "/notifications"]?.arrayValue ?? []).compactMap { $0[pointer: "/state"]?.stringValue })
        #expect(states == ["scheduled", "snoozed"], "one held for the summary, one snoozed: \(listed.compactText)")
    }

    @Test("An idle heraldd with a Focus schedule, a summary, a snooze and a mute pending does not wake")
    func idleHeralddSleeps() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "console"])
        do {
            let client = try herald.connect()
            try Self.pendWork(client)
            // The first periodic snapshot of the changes just made: written, then at rest.
            try client.result("snapshot")
        }
        // Let the connection's close and the threads that served it settle.
        Thread.sleep(forTimeInterval: 2)
        let (wakeups, threads) = ContextSwitches.over(seconds: Self.window, pid: herald.process.pid)
        print("idle heraldd: \(wakeups) context switches in \(Int(Self.window)) s (\(threads))")
        #expect(wakeups <= Self.allowed, "heraldd woke \(wakeups) times in \(Int(Self.window)) s at rest: \(threads)")
        #expect(herald.process.isRunning)
    }

    @Test("A snooze's end comes on the real clock with nothing else to wake heraldd")
    func deadlineFiresAtRest() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let until: String
        do {
            let client = try herald.connect()
            try client.result("update-content", ["app": .string(Self.chat), "identifier": "m-1", "content": ["title": "Ann"]])
            let snoozed = try client.result("snooze-notification", ["app": .string(Self.chat), "identifier": "m-1", "seconds": 2])
            until = try #require(snoozed[pointer: "/snoozedUntil"]?.stringValue)
        }
        // No connection meanwhile: only the alarm can deliver it again (a read does not).
        Thread.sleep(forTimeInterval: 4)
        let listed = try herald.connect().result("list-notifications", ["app": .string(Self.chat)])
        #expect(listed[pointer: "/notifications/0/state"] == "delivered", "\(listed.compactText)")
        let deliveredAt = try #require(listed[pointer: "/notifications/0/deliveredAt"]?.stringValue)
        #expect(deliveredAt >= until, "delivered again at \(deliveredAt), not before its snooze ended at \(until)")
    }

    @Test(
        "An idle herald-notify, subscribed to heraldd and showing through dunst, does not wake",
        .enabled(if: DesktopSession.available, Comment(rawValue: DesktopSession.unavailableReason)))
    func idleHeraldNotifySleeps() throws {
        let session = try DesktopSession()
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let notify = try HeraldNotifyProcess(session: session, socket: herald.socketPath)
        #expect(notify.waitForLog(containing: "showing notifications through dunst"))
        do {
            let client = try herald.connect()
            try Self.pendWork(client)
        }
        Thread.sleep(forTimeInterval: 2)
        let (wakeups, threads) = ContextSwitches.over(seconds: Self.window, pid: notify.process.pid)
        print("idle herald-notify: \(wakeups) context switches in \(Int(Self.window)) s (\(threads))")
        #expect(wakeups <= Self.allowed, "herald-notify woke \(wakeups) times in \(Int(Self.window)) s at rest: \(threads)")
        #expect(notify.process.isRunning)
    }

    /// The kilobytes resident of `pid`'s own program file, from `/proc/PID/smaps`.
    static func programResidentKB(pid: Int32) throws -> Int {
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        let smaps = try String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8)
        var total = 0
        var inProgram = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if !first.hasSuffix(":") {
                inProgram = fields.count >= 6 && fields[5...].joined(separator: " ") == program
            } else if inProgram, first == "Rss:", fields.count >= 2 {
                total += Int(fields[1]) ?? 0
            }
        }
        return total
    }

    @Test("At rest, heraldd lets go of the pages of its program that start-up mapped, and answers after")
    func restingHeralddUnmapsItsCode() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let pid = herald.process.pid
        // No request: the rest comes a whole spell after the start.
        Thread.sleep(forTimeInterval: 2)
        let started = try Self.programResidentKB(pid: pid)
        var rested = started
        let deadline = Date().addingTimeInterval(30 + 60)
        while rested * 2 > started, Date() < deadline {
            Thread.sleep(forTimeInterval: 1)
            rested = try Self.programResidentKB(pid: pid)
        }
        print("heraldd's program resident: \(started) kB after start, \(rested) kB at rest")
        #expect(rested * 2 <= started, "at rest heraldd still maps \(rested) kB of its program (\(started) kB after start)")
        let (wakeups, threads) = ContextSwitches.over(seconds: 5, pid: pid)
        #expect(wakeups <= Self.allowed, "heraldd woke \(wakeups) times in 5 s after its rest: \(threads)")
        let focus = try herald.connect().result("get-focus", [:])
        #expect(focus[pointer: "/focuses"]?.arrayValue != nil, "get-focus's answer after the rest: \(focus.compactText)")
    }
}
