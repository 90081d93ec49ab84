import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, item 7, on the desktop: the person removes a notification (`heraldctl
/// notifications remove`) and its bubble goes; `heraldctl notifications undo` brings the
/// bubble back through herald-notify and dunst, and an action on it still reaches the app —
/// what no freedesktop server can do for a closed notification (mako#525).
@Suite(.serialized, .enabled(if: PresenterEventsGate.enabled, Comment(rawValue: PresenterEventsGate.reason)))
struct HeraldNotifyUndoEndToEndTests {
    static let app = "org.example.chat"

    @Test func anUndoneRemovalShowsTheBubbleAgainAndItsActionReachesTheApp() throws {
        let script = try HeraldNotifyResponsesEndToEndTests.dmenu(choosing: "Like")
        defer { unlink(script) }
        let heraldd = try HeraldProcess(.standalone)
        let session = try DesktopSession(dmenu: script)
        let notify = try HeraldNotifyProcess(session: session, socket: heraldd.socketPath)
        #expect(notify.waitForLog(containing: "presenting uid \(getuid())"), "\(notify.stderr)")
        let poster = try heraldd.connect()
        let app = try heraldd.connect()
        let categories = json(#"[{"identifier":"message","actions":[{"identifier":"like","title":"Like"}]}]"#)
        #expect(try poster.call("set-notification-categories", ["app": .string(Self.app), "categories": categories])[pointer: "/result"] != nil)
        #expect(try app.call("subscribe-responses", ["app": .string(Self.app)])[pointer: "/result/pending"] == 0)
        let content = #"{"app":"\#(Self.app)","identifier":"u1","content":{"title":"Ada","body":"Lunch?","categoryIdentifier":"message"}}"#
        #expect(try poster.call("update-content", json(content))[pointer: "/result/identifier"] == "u1")
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "\(notify.stderr)")

        let removed = try Heraldctl.run(["notifications", "remove", "--app", Self.app, "u1", "--socket", heraldd.socketPath])
        #expect(removed.stdout == "Removed 1 notification.\n", "\(removed)")
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "the removal took the bubble down: \(notify.stderr)")

        let undone = try Heraldctl.run(["notifications", "undo", "--socket", heraldd.socketPath])
        #expect(undone.stdout == "Restored 1 notification.\n", "\(undone)")
        #expect(session.wait(timeout: 20) { session.displayedCount == 1 }, "the bubble is back: \(notify.stderr)")

        #expect(session.dunstctl(["context"]).status == 0)
        let liked = try #require(try ResponsesEndToEndTests.next("notification-response", from: app, timeout: 20), "\(notify.stderr)")
        #expect(liked[pointer: "/identifier"] == "u1" && liked[pointer: "/actionIdentifier"] == "like")
        #expect(session.wait(timeout: 20) { session.displayedCount == 0 }, "\(notify.stderr)")
    }
}
