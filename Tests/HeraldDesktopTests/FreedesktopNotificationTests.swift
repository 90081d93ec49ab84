import HeraldBus
import HeraldDesktop
import HeraldProtocol
import Testing

/// What the gateway makes of an app's Notify: the rules of docs/operations.md's table.
@Suite("A freedesktop notification as Herald's")
struct FreedesktopNotificationTests {
    @Test("Urgency low, normal and critical are passive, active and time-sensitive; never critical")
    func urgency() {
        for (urgency, level) in [(0, "passive"), (1, "active"), (2, "timeSensitive"), (7, "active")] {
            let notification = FreedesktopNotification(appName: "a", summary: "s", hints: [BusEntry(key: "urgency", value: .byte(UInt8(urgency)))])
            #expect(notification.content["interruptionLevel"] == .string(level))
        }
        #expect(FreedesktopNotification(appName: "a", summary: "s").content["interruptionLevel"] == .string("active"))
    }

    @Test("A verified app wins over every hint; else desktop-entry, else the app name made valid")
    func app() {
        let posing = FreedesktopNotification(appName: "Bank", summary: "s", hints: [BusEntry(key: "desktop-entry", value: .string("org.example.bank"))])
        #expect(posing.app(verified: "org.example.Game") == "org.example.Game")
        #expect(posing.app(verified: nil) == "org.example.bank")
        #expect(FreedesktopNotification(appName: "Mozilla Firefox", summary: "s").app(verified: nil) == "Mozilla-Firefox")
        #expect(FreedesktopNotification(appName: "", summary: "s").app(verified: nil) == "unknown")
        let badEntry = FreedesktopNotification(appName: "x", summary: "s", hints: [BusEntry(key: "desktop-entry", value: .string("a b"))])
        #expect(badEntry.app(verified: nil) == "x")
    }

    @Test("The body loses its markup for Herald; entities are decoded; plain text stays as it is")
    func body() {
        #expect(BodyMarkup.plainText("standup <b>in</b> 5 &amp; <a href=\"x\">more</a>") == "standup in 5 & more")
        #expect(BodyMarkup.plainText("1 < 2 &unknown; &#65;&#x42;") == "1 < 2 &unknown; AB")
        #expect(BodyMarkup.plainText("no markup") == "no markup")
    }

    @Test("im.* is a message and call.* a call, donated first; other categories only a notification")
    func kinds() {
        let message = FreedesktopNotification(appName: "chat", summary: "Ann Lee", hints: [BusEntry(key: "category", value: .string("im.received"))])
        let donated = message.donateParams(app: "chat", identifier: "fdo-1-1")
        #expect(donated?["interaction"]?.objectValue?["intent"]?.objectValue?["type"] == .string("sendMessage"))
        // The conversation is named by a digest: the journal never carries the sender's name.
        let conversation = donated?["interaction"]?.objectValue?["intent"]?.objectValue?["conversationIdentifier"]?.stringValue
        #expect(conversation?.hasPrefix("fdo-") == true && conversation?.contains("Ann") == false)
        let call = FreedesktopNotification(appName: "phone", summary: "Bo", hints: [BusEntry(key: "category", value: .string("call.incoming"))])
        #expect(call.donateParams(app: "phone", identifier: "x")?["interaction"]?.objectValue?["intent"]?.objectValue?["type"] == .string("startCall"))
        #expect(FreedesktopNotification(appName: "mail", summary: "s", hints: [BusEntry(key: "category", value: .string("email.arrived"))])
            .donateParams(app: "mail", identifier: "x") == nil)
    }

    @Test("Herald's copy of a long text is cut at a character, within its bound")
    func clipped() {
        let long = String(repeating: "é", count: FreedesktopNotification.maximumTextBytes)
        let body = FreedesktopNotification(appName: "a", summary: "s", body: long).content["body"]?.stringValue ?? ""
        #expect(body.utf8.count <= FreedesktopNotification.maximumTextBytes && body.utf8.count > FreedesktopNotification.maximumTextBytes - 2)
        #expect(body.allSatisfy { $0 == "é" })
    }

    @Test("update-content names the gateway and what verified the app")
    func updateParams() {
        let params = FreedesktopNotification(appName: "a", summary: "s").updateParams(
            app: "org.example.Game", identifier: "fdo-1-2", interaction: false, gateway: "freedesktop", verifiedBy: "flatpak"
        )
        #expect(params["gateway"] == .object(["name": .string("freedesktop"), "appVerifiedBy": .string("flatpak")]))
        #expect(params["interactionIdentifier"] == nil)
    }
}
