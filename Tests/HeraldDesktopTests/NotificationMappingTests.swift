import Foundation
import HeraldBus
import HeraldDesktop
import HeraldProtocol
import Testing

/// The herald-notify table of docs/operations.md, one rule per test.
@Suite struct NotificationMappingTests {
    static let everything = ServerCapabilities(["body", "body-markup", "actions", "action-icons", "sound"])

    static func notification(
        _ content: NotificationContent,
        presentation: Presentation = .alert,
        sound: Bool = true,
        actions: [PresentedAction]? = nil,
        identifier: String = "n1"
    ) -> PresentedNotification {
        PresentedNotification(
            identifier: identifier,
            app: "org.example.chat",
            content: content,
            delivery: Delivery(presentation: presentation, sound: sound),
            receivedAt: Date(timeIntervalSince1970: 1_800_000_000),
            deliveredAt: Date(timeIntervalSince1970: 1_800_000_000),
            actions: actions
        )
    }

    static func message(avatar: NotificationImage? = nil) -> CommunicationInfo {
        CommunicationInfo(type: .sendMessage, conversationIdentifier: "c1", avatar: avatar)
    }

    @Test func appTitleAndBody() throws {
        let mapping = NotificationMapping(capabilities: Self.everything)
        let bubble = try #require(mapping.bubble(for: Self.notification(NotificationContent(title: "Ada", body: "See you"))))
        let arguments = bubble.arguments(replacesID: 0, imagePath: nil)
        #expect(arguments.appName == "org.example.chat")
        #expect(arguments.summary == "Ada")
        #expect(arguments.body == "See you")
        #expect(arguments.replacesID == 0)
        #expect(arguments.expireTimeout == -1)
        #expect(bubble.key == .notification(NotificationKey(app: "org.example.chat", identifier: "n1")))
    }

    @Test func noTitleShowsTheApp() throws {
        let mapping = NotificationMapping(capabilities: Self.everything)
        let bubble = try #require(mapping.bubble(for: Self.notification(NotificationContent(body: "b"))))
        #expect(bubble.arguments.summary == "org.example.chat")
    }

    @Test func bodyEscapedOnlyWhereTheServerReadsMarkup() throws {
        let content = NotificationContent(title: "A & B", subtitle: "<team>", body: "1 < 2 & \"3\" > 'x'")
        let markup = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content)))
        #expect(markup.arguments.summary == "A & B")  // the summary is never markup
        #expect(markup.arguments.body == "<b>&lt;team&gt;</b>\n1 &lt; 2 &amp; &quot;3&quot; &gt; &apos;x&apos;")
        let plain = try #require(NotificationMapping(capabilities: ServerCapabilities(["body"])).bubble(for: Self.notification(content)))
        #expect(plain.arguments.body == "<team>\n1 < 2 & \"3\" > 'x'")
    }

    @Test func subtitleJoinsTheSummaryWithoutBodyCapability() throws {
        let content = NotificationContent(title: "Ada", subtitle: "Team", body: "hi")
        let bubble = try #require(NotificationMapping(capabilities: ServerCapabilities([])).bubble(for: Self.notification(content)))
        #expect(bubble.arguments.summary == "Ada — Team")
    }

    @Test(arguments: [
        (InterruptionLevel?.none, UInt8(1)), (.passive, 0), (.active, 1), (.timeSensitive, 1), (.critical, 2),
    ])
    func urgency(level: InterruptionLevel?, urgency: UInt8) throws {
        let bubble = try #require(
            NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(NotificationContent(title: "t", interruptionLevel: level)))
        )
        #expect(bubble.arguments.hint("urgency") == .byte(urgency))
    }

    @Test func messageCategoryAndSound() throws {
        let content = NotificationContent(title: "Ada", communication: Self.message())
        let bubble = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content)))
        #expect(bubble.arguments.hint("category") == .string("im.received"))
        #expect(bubble.arguments.hint("sound-name") == .string("message-new-instant"))
        #expect(bubble.arguments.hint("suppress-sound") == nil)
    }

    @Test func callCategoryAndSound() throws {
        let content = NotificationContent(title: "Ada", communication: CommunicationInfo(type: .startCall))
        let bubble = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content)))
        #expect(bubble.arguments.hint("category") == .string("x-herald.call"))
        #expect(bubble.arguments.hint("sound-name") == .string("phone-incoming-call"))
    }

    @Test func noSoundSuppressesTheServersSound() throws {
        let content = NotificationContent(title: "Ada", communication: Self.message())
        let bubble = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content, sound: false)))
        #expect(bubble.arguments.hint("sound-name") == nil)
        #expect(bubble.arguments.hint("suppress-sound") == .boolean(true))
    }

    @Test func otherNotificationsHaveNoCategoryAndTheServersSound() throws {
        let bubble = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(NotificationContent(title: "t"))))
        #expect(bubble.arguments.hint("category") == nil)
        #expect(bubble.arguments.hint("sound-name") == nil)
        #expect(bubble.arguments.hint("suppress-sound") == nil)
    }

    @Test func quietIsSkippedByDefaultOrShownLowAndSilent() throws {
        let content = NotificationContent(title: "Ada", interruptionLevel: .timeSensitive, communication: Self.message())
        let quiet = Self.notification(content, presentation: .quiet, sound: true)
        // Quiet stays quiet: by default nothing Herald delivered quietly pops up.
        #expect(NotificationMapping(capabilities: Self.everything).bubble(for: quiet) == nil)
        let shown = try #require(NotificationMapping(capabilities: Self.everything, quiet: .show).bubble(for: quiet))
        #expect(shown.arguments.hint("urgency") == .byte(0))
        #expect(shown.arguments.hint("suppress-sound") == .boolean(true))
        #expect(shown.arguments.hint("sound-name") == nil)
        // A notification held for the summary is shown with its summary, not alone.
        #expect(NotificationMapping(capabilities: Self.everything, quiet: .show).bubble(for: Self.notification(content, presentation: .summary)) == nil)
    }

    @Test func avatarFileBecomesTheImagePath() throws {
        let content = NotificationContent(
            title: "Ada",
            attachments: [["url": "file:///tmp/attachment.png"]],
            communication: Self.message(avatar: NotificationImage(url: "file:///home/ada/My%20Avatar.png"))
        )
        let bubble = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content)))
        #expect(bubble.image == .file(path: "/home/ada/My Avatar.png"))
        #expect(bubble.arguments(replacesID: 0, imagePath: "/home/ada/My Avatar.png").hint("image-path") == .string("/home/ada/My Avatar.png"))
        #expect(bubble.arguments.hint("image-path") == nil)
    }

    @Test func firstImageAttachmentWithoutAnAvatar() throws {
        let png = Data([0x89, 0x50, 0x4e, 0x47]).base64EncodedString()
        let content = NotificationContent(
            title: "t",
            attachments: [
                ["url": "file:///tmp/notes.txt"],
                ["url": "https://example.org/remote.png"],
                ["data": .string(png), "mimeType": "image/png"],
                ["url": "file:///tmp/later.png"],
            ]
        )
        let bubble = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content)))
        #expect(bubble.image == .inline(data: Data([0x89, 0x50, 0x4e, 0x47]), mimeType: "image/png"))
        #expect(bubble.image?.fileExtension == "png")
    }

    @Test func remoteAvatarIsNeverFetched() throws {
        let content = NotificationContent(title: "t", communication: Self.message(avatar: NotificationImage(url: "https://example.org/a.png")))
        let bubble = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content)))
        #expect(bubble.image == nil)
    }

    @Test func actionsWithDefaultAndIcons() throws {
        let actions = [
            PresentedAction(identifier: "reply", title: "Reply", textInput: ["buttonTitle": "Send", "placeholder": "Message"]),
            PresentedAction(identifier: "like", title: "Like", icon: .init(systemImageName: "emblem-favorite")),
            PresentedAction(identifier: "mute", title: "Mute"),
        ]
        let content = NotificationContent(title: "t", categoryIdentifier: "message")
        let withIcons = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content, actions: actions)))
        #expect(withIcons.arguments.actions == ["default", "Open", "emblem-favorite", "Like", "mute", "Mute", "herald-snooze", "Snooze 1 hour"])
        #expect(withIcons.arguments.hint("action-icons") == .boolean(true))
        #expect(withIcons.actionKeys == ["default": "default", "emblem-favorite": "like", "mute": "mute"])
        #expect(withIcons.snoozeKey == "herald-snooze")

        let noIcons = try #require(NotificationMapping(capabilities: ServerCapabilities(["body", "actions"])).bubble(for: Self.notification(content, actions: actions)))
        #expect(noIcons.arguments.actions == ["default", "Open", "like", "Like", "mute", "Mute", "herald-snooze", "Snooze 1 hour"])
        #expect(noIcons.arguments.hint("action-icons") == nil)

        let noActions = try #require(NotificationMapping(capabilities: ServerCapabilities(["body"])).bubble(for: Self.notification(content, actions: actions)))
        #expect(noActions.arguments.actions.isEmpty)
    }

    /// Issue 45, item 9: without KDE's inline reply, a text-input action is offered only
    /// when herald-notify has the person's prompt (`--reply-command`); the inline reply,
    /// where the server has it, comes first.
    @Test func aReplyIsOfferedThroughThePersonsPromptWhereTheServerHasNoInlineReply() throws {
        let actions = [
            PresentedAction(identifier: "reply", title: "Reply", textInput: ["buttonTitle": "Send", "placeholder": "Message Ada"]),
            PresentedAction(identifier: "answer", title: "Answer", textInput: [:]),
        ]
        let content = NotificationContent(title: "t", categoryIdentifier: "message")
        let dunst = ServerCapabilities(["body", "actions"])
        let prompted = try #require(NotificationMapping(capabilities: dunst, promptsForReplies: true).bubble(for: Self.notification(content, actions: actions)))
        #expect(prompted.arguments.actions == ["default", "Open", "herald-reply", "Reply", "herald-snooze", "Snooze 1 hour"], "the first one only")
        #expect(prompted.actionKeys["herald-reply"] == "reply" && prompted.replyPrompt == "Message Ada")
        #expect(prompted.inlineReplyAction == nil)
        let titled = [PresentedAction(identifier: "answer", title: "Answer", textInput: [:])]
        #expect(try NotificationMapping(capabilities: dunst, promptsForReplies: true).bubble(for: Self.notification(content, actions: titled))?.replyPrompt == "Answer")

        let unprompted = try #require(NotificationMapping(capabilities: dunst).bubble(for: Self.notification(content, actions: actions)))
        #expect(unprompted.arguments.actions == ["default", "Open", "herald-snooze", "Snooze 1 hour"])
        #expect(unprompted.replyPrompt == nil && unprompted.actionKeys["herald-reply"] == nil)

        let plasma = ServerCapabilities(["body", "actions", "inline-reply"])
        let inline = try #require(NotificationMapping(capabilities: plasma, promptsForReplies: true).bubble(for: Self.notification(content, actions: actions)))
        #expect(inline.inlineReplyAction == "reply" && inline.replyPrompt == nil)
        #expect(inline.arguments.actions.contains("inline-reply") && !inline.arguments.actions.contains("herald-reply"))
    }

    @Test func snoozeIsOfferedAfterTheAppsActionsAndAnAppsOwnKeyKeepsIt() throws {
        let content = NotificationContent(title: "t")
        let plain = try #require(NotificationMapping(capabilities: Self.everything).bubble(for: Self.notification(content)))
        #expect(plain.arguments.actions == ["default", "Open", "herald-snooze", "Snooze 1 hour"])
        #expect(plain.snoozeKey == "herald-snooze" && plain.actionKeys["herald-snooze"] == nil, "herald-notify answers it, not the app")
        let own = [PresentedAction(identifier: "herald-snooze", title: "Later")]
        let taken = try #require(NotificationMapping(capabilities: ServerCapabilities(["body", "actions"])).bubble(for: Self.notification(content, actions: own)))
        #expect(taken.arguments.actions == ["default", "Open", "herald-snooze", "Later"], "the app's own action keeps its key")
        #expect(taken.snoozeKey == nil && taken.actionKeys["herald-snooze"] == "herald-snooze")
    }

    @Test func summaryListsFiveRankedLinesAndCountsTheRest() throws {
        let notifications = (1...7).map { index in
            Self.notification(NotificationContent(title: "T\(index)", body: index == 2 ? "a < b" : "body \(index)"), presentation: .summary, identifier: "n\(index)")
        }
        let mapping = NotificationMapping(capabilities: Self.everything)
        let bubble = try #require(mapping.summaryBubble(for: notifications))
        #expect(bubble.key == .summary)
        #expect(bubble.arguments.summary == "Notification summary: org.example.chat")
        #expect(bubble.arguments.body == "T1: body 1\nT2: a &lt; b\nT3: body 3\nT4: body 4\nT5: body 5\n+2 more")
        let five = try #require(mapping.summaryBubble(for: Array(notifications.prefix(5))))
        #expect(!five.arguments.body.contains("more"))
        #expect(mapping.summaryBubble(for: []) == nil)
    }

    /// Issue 45, item 7: the summary says which apps it holds, by the names their desktop
    /// files give (as every other bubble names an app).
    @Test func aSummaryNamesItsAppsByTheirDesktopNames() throws {
        func notification(_ app: String, _ identifier: String, title: String? = nil) -> PresentedNotification {
            var notification = Self.notification(NotificationContent(title: title, body: "b"), presentation: .summary, identifier: identifier)
            notification.app = app
            return notification
        }
        let names = ["org.example.chat": "Chatty", "org.example.news": "News"]
        let notifications = [
            notification("org.example.chat", "n1", title: "Ann"), notification("org.example.news", "n2"), notification("org.example.chat", "n3"),
            notification("org.example.mail", "n4"), notification("org.example.shop", "n5"),
        ]
        let bubble = try #require(NotificationMapping(capabilities: Self.everything).summaryBubble(for: notifications) { names[$0] ?? $0 })
        #expect(bubble.arguments.summary == "Notification summary: Chatty, News, org.example.mail and 1 more")
        #expect(bubble.arguments.body == "Ann: b\nNews: b\nChatty: b\norg.example.mail: b\norg.example.shop: b", "a notification without a title is its app's")
        let plain = try #require(NotificationMapping(capabilities: ServerCapabilities([])).summaryBubble(for: Array(notifications.prefix(2))) { names[$0] ?? $0 })
        #expect(plain.arguments.summary == "Notification summary: Chatty, News (2)")
    }

    @Test func aQuietSummaryIsSkippedOrShownLow() throws {
        let notifications = [Self.notification(NotificationContent(title: "T", body: "b"), presentation: .summary, identifier: "n1")]
        #expect(NotificationMapping(capabilities: Self.everything).summaryBubble(for: notifications, quiet: true) == nil)
        let shown = try #require(NotificationMapping(capabilities: Self.everything, quiet: .show).summaryBubble(for: notifications, quiet: true))
        #expect(shown.arguments.hint("urgency") == .byte(0))
        let alert = try #require(NotificationMapping(capabilities: Self.everything).summaryBubble(for: notifications))
        #expect(alert.arguments.hint("urgency") == .byte(1))
    }
}
