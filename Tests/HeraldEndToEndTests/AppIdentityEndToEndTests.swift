import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 30, end to end: a client in a real bubblewrap sandbox with a `/.flatpak-info` is
/// verified as that app — it works as itself, is refused as another app and is refused the
/// person's settings — while the person, outside any sandbox, keeps everything.
@Suite("App identity, end to end", .enabled(if: FlatpakSandbox.isUsable, "needs bwrap and user namespaces"))
struct AppIdentityEndToEndTests {
    static let chat = "org.example.chat"
    static let pager = "org.example.pager"

    private func sandbox(_ herald: HeraldProcess, app: String = chat) -> FlatpakSandbox {
        FlatpakSandbox(app: app, socketFolder: herald.folder.path)
    }

    private static func notify(app: String) -> JSONValue {
        request("update-content", ["app": .string(app), "content": ["title": "Pager", "body": "Disk full"]])
    }

    /// The person's Focus lets only the pager through, as in the issue.
    private func personFocusesAllowingPager(_ herald: HeraldProcess) throws -> UnixSocketClient {
        let person = try herald.connect()
        try person.result("set-focus", json(#"{"focus":{"name":"Work","allowedApps":["org.example.pager"]}}"#))
        return person
    }

    @Test("A sandboxed app works as itself: donate, update-content, request-focus, its own settings")
    func worksAsItself() throws {
        let herald = try HeraldProcess(.standalone)
        _ = try personFocusesAllowingPager(herald)
        let responses = try sandbox(herald).call(
            [
                request("donate", json(#"{"app":"org.example.chat","interaction":{"identifier":"m-1","direction":"incoming","intent":{"type":"sendMessage","sender":{"displayName":"Ann"},"conversationIdentifier":"c-1"}}}"#)),
                request("update-content", json(#"{"app":"org.example.chat","interactionIdentifier":"m-1","content":{"body":"Hi"}}"#)),
                request("request-focus", ["app": .string(Self.chat)]),
                request("get-app-settings", ["app": .string(Self.chat)]),
                request("rpc.discover", [:]),
            ],
            socket: herald.socketPath
        )
        #expect(responses.count == 5)
        #expect(responses.allSatisfy { $0[pointer: "/error"] == nil }, "\(responses.map(\.compactText))")
        // Not allowed through the Focus: the sandboxed app's own notification is silenced.
        #expect(describeDelivery(responses[1][pointer: "/result"]) == "quiet [silencedByFocus]")
        #expect(responses[1][pointer: "/result/delivery/appVerifiedBy"] == "flatpak")
    }

    @Test("A sandboxed app naming another app gets 1006 naming both ids, and nothing breaks through")
    func refusedAsAnotherApp() throws {
        let herald = try HeraldProcess(.standalone)
        let person = try personFocusesAllowingPager(herald)
        let responses = try sandbox(herald).call(
            [
                Self.notify(app: Self.pager),
                request("donate", json(#"{"app":"org.example.pager","interaction":{"identifier":"m-1","direction":"outgoing","intent":{"type":"sendMessage","recipients":[{"displayName":"Bo"}]}}}"#)),
                request("get-notification-categories", ["app": .string(Self.pager)]),
                request("subscribe-responses", ["app": .string(Self.pager)]),
                request("list-notifications", ["app": .string(Self.pager)]),
                request("list-notifications", [:]),
                request("remove-notifications", ["app": .string(Self.pager), "all": true]),
            ],
            socket: herald.socketPath
        )
        #expect(responses.map(describeError) == Array(repeating: "1006 /app", count: 7))
        for response in responses.prefix(5) {
            let reason = response[pointer: "/error/data/reason"]?.stringValue ?? ""
            #expect(reason.contains(Self.chat) && reason.contains(Self.pager), "\(reason)")
        }
        // Nothing was posted as the pager: the person's list of it is empty.
        let list = try person.result("list-notifications", ["app": .string(Self.pager)])
        #expect(list[pointer: "/notifications"] == .array([]))
    }

    @Test("The person's settings answer 1006 to a sandboxed app, and stay as the person left them")
    func refusedThePersonsSettings() throws {
        let herald = try HeraldProcess(.standalone)
        let person = try personFocusesAllowingPager(herald)
        let responses = try sandbox(herald).call(
            [
                request("set-focus-authorization", ["app": .string(Self.chat), "status": "authorized"]),
                request("set-focus", ["focus": .null]),
                request("define-focus", json(#"{"focus":{"name":"Play"}}"#)),
                request("delete-focus", ["name": "Work"]),
                request("get-focus", [:]),
                request("set-capabilities", ["app": .string(Self.chat), "timeSensitive": true]),
                request("set-summary", ["apps": [], "times": []]),
                request("deliver-summary", [:]),
                request("subscribe-notifications", [:]),
                request("list-authorization-requests", [:]),
                request("stats", [:]),
                request("suggest-people", [:]),
            ],
            socket: herald.socketPath
        )
        #expect(responses.map(describeError) == Array(repeating: "1006 -", count: 12))
        #expect(responses[0][pointer: "/error/data/reason"]?.stringValue?.contains("the person's") == true)
        let settings = try person.result("get-app-settings", ["app": .string(Self.chat)])
        #expect(settings[pointer: "/authorizationStatus"] == "notDetermined")
        let focus = try person.result("get-focus")
        #expect(focus[pointer: "/active/name"] == "Work", "\(focus.compactText)")
    }

    @Test("The person, outside any sandbox, keeps everything: the issue's three calls still work")
    func personKeepsEverything() throws {
        let herald = try HeraldProcess(.standalone)
        let person = try personFocusesAllowingPager(herald)
        try person.result("set-focus-authorization", ["app": .string(Self.chat), "status": "authorized"])
        let pager = try person.call("update-content", ["app": .string(Self.pager), "content": ["body": "Disk full"]])
        #expect(describeDelivery(pager[pointer: "/result"]) == "alert sound lightsScreen breaksThroughFocus [appAllowedByFocus, delivered]")
        #expect(pager[pointer: "/result/delivery/appVerifiedBy"] == nil, "the person's app is named, not verified")
        try person.result("set-focus", ["focus": .null])
        #expect(try person.result("stats")[pointer: "/connections"] != nil)
    }

    @Test("--require-app-identity refuses an app's methods to the person, not the person's own")
    func requireAppIdentity() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--require-app-identity"])
        let person = try herald.connect()
        let refused = try person.call("update-content", ["app": .string(Self.chat), "content": ["body": "Hi"]])
        #expect(describeError(refused) == "1006 -")
        #expect(refused[pointer: "/error/data/reason"]?.stringValue?.contains("--require-app-identity") == true)
        try person.result("set-focus", json(#"{"focus":{"name":"Work"}}"#))
        try person.result("set-focus-authorization", ["app": .string(Self.chat), "status": "denied"])
        let sandboxed = try sandbox(herald).call([Self.notify(app: Self.chat)], socket: herald.socketPath)
        #expect(describeDelivery(sandboxed.first?[pointer: "/result"]) == "quiet [silencedByFocus]")
    }

    @Test("Journal entries say the app was verified, and by what", .enabled(if: JournalReader.isAvailable, "needs journald"))
    func journalSaysVerified() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "journal"])
        let person = try herald.connect()
        _ = try person.call("update-content", ["app": .string(Self.pager), "content": ["body": "From the person"]])
        _ = try sandbox(herald).call([Self.notify(app: Self.chat)], socket: herald.socketPath)
        let journal = JournalReader(pid: herald.process.pid)
        let entries = try journal.waitForEntries(count: 2, matching: ["HERALD_METHOD=update-content"])
        let sandboxed = try #require(entries.first { $0.field("HERALD_APP") == Self.chat })
        #expect(sandboxed.field("HERALD_APP_VERIFIED") == "1")
        #expect(sandboxed.field("HERALD_APP_SOURCE") == "flatpak")
        #expect(sandboxed.field("HERALD_PEER_APP") == Self.chat)
        let unverified = try #require(entries.first { $0.field("HERALD_APP") == Self.pager })
        #expect(unverified.field("HERALD_APP_VERIFIED") == "0")
        #expect(unverified.field("HERALD_APP_SOURCE") == nil)
    }
}
