import Foundation
import HeraldTesting
import Testing

/// `heraldctl categories`, `respond` and `watch --responses` against the real heraldd: words and JSON.
@Suite("heraldctl categories and responses, end to end")
struct HeraldctlResponsesEndToEndTests {
    static let categories = """
        [{"identifier":"message","options":["customDismissAction"],"actions":[
          {"identifier":"reply","title":"Reply","icon":{"systemImageName":"mail-reply-sender"},"textInput":{"buttonTitle":"Send","placeholder":"Message"}},
          {"identifier":"like","title":"Like","options":["foreground"]}]}]
        """

    private func daemon() throws -> HeraldProcess {
        try HeraldProcess(.standalone, arguments: ["--log-target", "none", "--snapshot-interval", "0"])
    }

    private func ctl(_ herald: HeraldProcess, _ arguments: [String], input: String = "") throws -> Heraldctl.Run {
        try Heraldctl.run(arguments + ["--socket", herald.socketPath], input: input)
    }

    private func object(_ run: Heraldctl.Run) -> [String: Any] {
        run.jsonLines.first as? [String: Any] ?? [:]
    }

    @Test("categories set from a file and from standard input, categories show: words and JSON; errors exit 1 with the pointer")
    func categories() throws {
        let herald = try daemon()
        let file = herald.folder.appendingPathComponent("categories.json")
        try Data(Self.categories.utf8).write(to: file)
        let set = try ctl(herald, ["categories", "set", "org.example.chat", "--file", file.path])
        #expect(set.status == 0, "\(set)")
        #expect(
            set.stdout == """
                org.example.chat has 1 category now:
                  message (customDismissAction)
                    reply: "Reply" [icon mail-reply-sender; text input, Send button]
                    like: "Like" [foreground]

                """,
            "\(set)"
        )
        let shown = try ctl(herald, ["categories", "show", "org.example.chat", "--json"])
        let actions = ((object(shown)["categories"] as? [[String: Any]])?.first?["actions"] as? [[String: Any]])?.map { $0["identifier"] as? String }
        #expect(actions == ["reply", "like"], "\(shown)")
        let fromStdin = try ctl(herald, ["categories", "set", "org.example.news", "--file", "-", "--json"], input: #"{"categories":[]}"#)
        #expect(object(fromStdin)["categories"] as? [Any] != nil && fromStdin.status == 0, "\(fromStdin)")
        let none = try ctl(herald, ["categories", "show", "org.example.news"])
        #expect(none.stdout == "org.example.news has no categories.\n", "\(none)")
        let bare = try ctl(herald, ["categories", "org.example.news"])
        #expect(bare.stdout == none.stdout, "\(bare)")
        let reserved = try ctl(
            herald, ["categories", "set", "org.example.chat", "--file", "-"], input: #"[{"identifier":"c","actions":[{"identifier":"default","title":"Open"}]}]"#
        )
        #expect(reserved.status == 1 && reserved.stderr.contains("pointer: /categories/0/actions/0/identifier"), "\(reserved)")
        let notJSON = try ctl(herald, ["categories", "set", "org.example.chat", "--file", "-"], input: "nope")
        #expect(notJSON.status == 2, "\(notJSON)")
    }

    @Test("respond with each kind; watch --responses prints each as it happens and leaves the waiting ones to the app")
    func respondAndWatch() throws {
        let herald = try daemon()
        _ = try ctl(herald, ["categories", "set", "org.example.chat", "--file", "-"], input: Self.categories)
        for identifier in ["m-1", "m-2", "m-3", "m-5"] {
            let content = #"{"app":"org.example.chat","identifier":"\#(identifier)","content":{"title":"Ann","categoryIdentifier":"message"}}"#
            #expect(try ctl(herald, ["call", "update-content", content]).status == 0)
        }
        // notify names the category, whose actions a presenter shows.
        let posted = try ctl(herald, ["notify", "--app", "org.example.chat", "--identifier", "m-0", "--title", "Ann", "--category", "message"])
        #expect(posted.status == 0 && posted.stdout.contains("\ncategory  message\n"), "\(posted)")
        let waiting = try ctl(herald, ["respond", "org.example.chat", "m-1", "reply", "--text", "On my way"])
        #expect(waiting.stdout == "Answered org.example.chat m-1 with reply: it waits for the app to subscribe.\n", "\(waiting)")

        // Watching takes nothing (issue 28): the waiting response stays the app's, and one
        // made while only the watcher listens waits for the app too.
        let watching = try Heraldctl.start(["watch", "--responses", "org.example.chat", "--socket", herald.socketPath])
        #expect(
            watching.waitForOutput(containing: "watching responses of org.example.chat: 1 waiting for the app, left for it"),
            "\(watching.stdout)\(watching.stderr)")
        let watched = try ctl(herald, ["respond", "org.example.chat", "m-2", "default"])
        #expect(watched.stdout == "Answered org.example.chat m-2 with default: it waits for the app to subscribe.\n", "\(watched)")
        #expect(watching.waitForOutput(containing: "response org.example.chat m-2: default"), "\(watching.stdout)")
        #expect(!watching.stdout.contains("m-1"), "\(watching.stdout)")

        // The app takes both, oldest first; then it hears one as it is made, and so does the watcher.
        let app = try herald.connect()
        let subscribed = try app.call("subscribe-responses", ["app": "org.example.chat"])
        #expect(subscribed[pointer: "/result/pending"] == 2, "\(subscribed.compactText)")
        #expect(try app.readJSON()?[pointer: "/params/identifier"] == "m-1")
        #expect(try app.readJSON()?[pointer: "/params/identifier"] == "m-2")
        let dismissed = try ctl(herald, ["respond", "org.example.chat", "m-3", "dismiss", "--json"])
        #expect(object(dismissed)["response"] as? String == "delivered", "\(dismissed)")
        #expect(try app.readJSON()?[pointer: "/params/actionIdentifier"] == "dismiss")
        #expect(watching.waitForOutput(containing: "response org.example.chat m-3: dismiss"), "\(watching.stdout)")
        watching.process.signal(SIGINT)
        #expect(watching.process.waitForExit(timeout: 10) == 0)

        let gone = try ctl(herald, ["respond", "org.example.chat", "m-1", "default"])
        #expect(gone.status == 1 && gone.stderr.contains("Notification not found (1009)") && gone.stderr.contains("given by: ID"), "\(gone)")

        // --json: the subscription's result (what waits, left for the app), then each notification-response as JSON.
        // The app, still subscribed, took everything: nothing waits.
        let json = try Heraldctl.start(["watch", "--responses", "org.example.chat", "--json", "--socket", herald.socketPath])
        #expect(json.waitForOutput(containing: "\"waiting\":0"), "\(json.stdout)\(json.stderr)")
        _ = try ctl(herald, ["respond", "org.example.chat", "m-5", "like"])
        #expect(json.waitForOutput(containing: "\"method\":\"notification-response\""), "\(json.stdout)")
        #expect(json.waitForOutput(containing: "\"identifier\":\"m-5\""), "\(json.stdout)")
        #expect(try app.readJSON()?[pointer: "/params/identifier"] == "m-5")
        json.process.signal(SIGINT)
        #expect(json.process.waitForExit(timeout: 10) == 0)
    }
}
