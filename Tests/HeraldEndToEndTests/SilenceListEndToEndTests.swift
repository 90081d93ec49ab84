import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

/// Issue 31: a person turns on a Focus that silences one app with heraldctl; that app's
/// notifications arrive quietly and every other app's come through, each decision saying why.
@Suite("Silence lists, end to end")
struct SilenceListEndToEndTests {
    @Test("heraldctl focus on --silence-app: the silenced app is quiet, the others come through")
    func silenceOneApp() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--log-target", "none"])
        let on = try Heraldctl.run(["focus", "on", "Sleep", "--silence-app", "org.example.news", "--socket", herald.socketPath])
        #expect(on.stdout.contains("silences apps:   org.example.news; every other app comes through"), "\(on)")
        let client = try herald.connect()
        let news = try client.call("update-content", ["app": "org.example.news", "identifier": "s-1", "content": ["title": "Story"]])
        #expect(news[pointer: "/result/delivery/presentation"] == "quiet", "\(news.compactText)")
        #expect(news[pointer: "/result/delivery/reasons/0/causes"] == ["appSilenced"])
        let chat = try client.call("update-content", ["app": "org.example.chat", "identifier": "c-1", "content": ["title": "Ann"]])
        #expect(chat[pointer: "/result/delivery/presentation"] == "alert", "\(chat.compactText)")
        #expect(chat[pointer: "/result/delivery/reasons/0/code"] == "notSilencedByFocus")

        let both = try Heraldctl.run(["focus", "on", "Sleep", "--allow-app", "org.example.chat", "--silence-nobody", "--socket", herald.socketPath])
        #expect(both.stdout.contains("allows apps:   org.example.chat"), "back to allowing: \(both)")
        let refused = try client.call(
            "set-focus", ["focus": ["name": "Sleep", "allowedApps": ["org.example.chat"], "silencedApps": ["org.example.news"]]])
        #expect(refused[pointer: "/error/data/pointer"] == "/focus/silencedApps", "\(refused.compactText)")
    }
}
