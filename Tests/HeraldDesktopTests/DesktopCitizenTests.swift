import Foundation
import HeraldBus
import HeraldDesktop
import HeraldProtocol
import Testing

/// What makes a bubble a desktop citizen: the app's name and icon from its desktop file,
/// one stack per thread, a group's avatar, and a text-input action as an inline reply.
@Suite struct DesktopCitizenTests {
    static let everything = NotificationMappingTests.everything

    static func notification(_ content: NotificationContent, actions: [PresentedAction]? = nil) -> PresentedNotification {
        NotificationMappingTests.notification(content, actions: actions)
    }

    // MARK: The desktop file

    @Test func desktopFileNameIconAndLanguage() throws {
        let contents = """
            # a comment
            [Desktop Entry]
            Type=Application
            Name=Example Chat
            Name[de]=Beispiel-Chat
            Name[de_CH]=Beispiel-Chat (Schweiz)
            Icon=org.example.chat
            Exec=chat %u

            [Desktop Action new]
            Name=New conversation
            """
        let plain = try #require(DesktopEntry(id: "org.example.chat", contents: contents))
        #expect(plain == DesktopEntry(id: "org.example.chat", name: "Example Chat", icon: "org.example.chat"))
        let german = try #require(DesktopEntry(id: "org.example.chat", contents: contents, languages: ["de_DE", "de"]))
        #expect(german.name == "Beispiel-Chat")
        let swiss = try #require(DesktopEntry(id: "org.example.chat", contents: contents, languages: ["de_CH", "de"]))
        #expect(swiss.name == "Beispiel-Chat (Schweiz)")
        // An action group's Name is not the app's.
        #expect(DesktopEntry(id: "x", contents: "[Desktop Action a]\nName=A\n") == nil)
        // Hidden is the specification's "deleted"; no Name, nothing to show.
        #expect(DesktopEntry(id: "x", contents: "[Desktop Entry]\nName=A\nHidden=true\n") == nil)
        #expect(DesktopEntry(id: "x", contents: "[Desktop Entry]\nIcon=a\n") == nil)
        #expect(DesktopEntry(id: "x", contents: "[Desktop Entry]\nName=A\\sB\n")?.name == "A B")
    }

    @Test(arguments: [
        ("de_DE.UTF-8", ["de_DE", "de"]), ("de_DE.UTF-8@euro", ["de_DE@euro", "de_DE", "de@euro", "de"]), ("fr", ["fr"]),
        ("C.UTF-8", []), ("", []),
    ])
    func languagesFromTheLocale(lang: String, keys: [String]) {
        #expect(DesktopEntry.languages(environment: ["LANG": lang]) == keys)
    }

    @Test func desktopFilesAreLookedForInTheXDGDataFolders() {
        let paths = DesktopEntry.candidatePaths(
            for: "org.example.chat", environment: ["XDG_DATA_HOME": "/home/ada/.data", "XDG_DATA_DIRS": "/opt/share:relative:/usr/share"]
        )
        #expect(
            paths == [
                "/home/ada/.data/applications/org.example.chat.desktop", "/opt/share/applications/org.example.chat.desktop",
                "/usr/share/applications/org.example.chat.desktop",
            ])
        #expect(
            DesktopEntry.candidatePaths(for: "org.example.chat", environment: ["HOME": "/home/ada"])
                == [
                    "/home/ada/.local/share/applications/org.example.chat.desktop",
                    "/usr/local/share/applications/org.example.chat.desktop", "/usr/share/applications/org.example.chat.desktop",
                ]
        )
        #expect(DesktopEntry.candidatePaths(for: "../../etc/passwd", environment: ["HOME": "/home/ada"]).isEmpty)
        #expect(DesktopEntry.candidatePaths(for: ".hidden", environment: ["HOME": "/home/ada"]).isEmpty)
    }

    @Test func theDesktopFileNamesTheBubble() throws {
        let entry = DesktopEntry(id: "org.example.chat", name: "Example Chat", icon: "org.example.chat")
        let mapping = NotificationMapping(capabilities: Self.everything)
        let named = try #require(mapping.bubble(for: Self.notification(NotificationContent(body: "b")), entry: entry))
        #expect(named.arguments.appName == "Example Chat")
        #expect(named.arguments.appIcon == "org.example.chat")
        #expect(named.arguments.hint("desktop-entry") == .string("org.example.chat"))
        // No title: the app's name, not its identifier.
        #expect(named.arguments.summary == "Example Chat")
        let bare = try #require(mapping.bubble(for: Self.notification(NotificationContent(body: "b"))))
        #expect(bare.arguments.appName == "org.example.chat")
        #expect(bare.arguments.appIcon == "")
        #expect(bare.arguments.hint("desktop-entry") == nil)
    }

    // MARK: Threads

    @Test func aThreadStacksByTheServersOwnHintElseByReplacement() throws {
        let content = NotificationContent(title: "Ada", threadIdentifier: "t1")
        let tag = "herald:org.example.chat:t1"
        let dunst = try #require(
            NotificationMapping(capabilities: ServerCapabilities(["body", "x-dunst-stack-tag", "x-canonical-private-synchronous"])).bubble(
                for: Self.notification(content)))
        #expect(dunst.arguments.hint("x-dunst-stack-tag") == .string(tag))
        #expect(dunst.arguments.hint("x-canonical-private-synchronous") == nil)
        #expect(dunst.thread == nil)
        let canonical = try #require(
            NotificationMapping(capabilities: ServerCapabilities(["body", "x-canonical-private-synchronous"])).bubble(
                for: Self.notification(content)))
        #expect(canonical.arguments.hint("x-canonical-private-synchronous") == .string(tag))
        #expect(canonical.thread == nil)
        let other = try #require(NotificationMapping(capabilities: ServerCapabilities(["body"])).bubble(for: Self.notification(content)))
        #expect(other.arguments.hint("x-dunst-stack-tag") == nil)
        #expect(other.arguments.hint("x-canonical-private-synchronous") == nil)
        #expect(other.thread == tag)
    }

    @Test func withoutAStackHintAThreadsNextBubbleReplacesItsLast() throws {
        let mapping = NotificationMapping(capabilities: ServerCapabilities(["body"]))
        func bubble(_ identifier: String, thread: String?) throws -> Bubble {
            let content = NotificationContent(title: "Ada", body: identifier, threadIdentifier: thread)
            return try #require(mapping.bubble(for: NotificationMappingTests.notification(content, identifier: identifier)))
        }
        var stacks = ThreadStacks()
        var shown: Set<Bubble.Key> = []
        func show(_ bubble: Bubble) -> Bubble.Key? {
            let replaced = stacks.replaced(by: bubble) { shown.contains($0) }
            if let replaced { shown.remove(replaced) }
            shown.insert(bubble.key)
            stacks.showed(bubble)
            return replaced
        }
        let m1 = try bubble("m1", thread: "t1"), m2 = try bubble("m2", thread: "t1"), other = try bubble("o1", thread: "t2")
        #expect(show(m1) == nil)
        #expect(show(m2) == m1.key)  // the thread's last
        #expect(show(other) == nil)  // another thread
        #expect(show(m2) == m2.key)  // its own bubble again
        #expect(shown == [m2.key, other.key])
        // Closed: the thread's next starts a new bubble.
        shown.remove(m2.key)
        stacks.closed(m2.key, thread: m2.thread)
        #expect(show(try bubble("m3", thread: "t1")) == nil)
        // No thread, no stack.
        let lone = try bubble("l1", thread: nil)
        #expect(show(lone) == nil)
        #expect(show(try bubble("l2", thread: nil)) == nil)
    }

    @Test func aConversationIsAThreadAndNoThreadStacksNothing() throws {
        let stacking = NotificationMapping(capabilities: ServerCapabilities(["body", "x-dunst-stack-tag"]))
        let message = NotificationContent(title: "Ada", communication: CommunicationInfo(type: .sendMessage, conversationIdentifier: "c9"))
        #expect(
            try #require(stacking.bubble(for: Self.notification(message))).arguments.hint("x-dunst-stack-tag")
                == .string("herald:org.example.chat:c9"))
        let alone = try #require(stacking.bubble(for: Self.notification(NotificationContent(title: "t"))))
        #expect(alone.arguments.hint("x-dunst-stack-tag") == nil)
        #expect(alone.thread == nil)
    }

    // MARK: Avatars

    @Test func aGroupWithoutItsOwnImageShowsTheSenders() throws {
        let sender = Person(displayName: "Bo", image: NotificationImage(url: "file:///home/ada/bo.png"))
        let group = CommunicationInfo(type: .sendMessage, conversationIdentifier: "g1", sender: sender, isGroup: true)
        let mapping = NotificationMapping(capabilities: Self.everything)
        let bubble = try #require(mapping.bubble(for: Self.notification(NotificationContent(title: "Team", communication: group))))
        #expect(bubble.image == .file(path: "/home/ada/bo.png"))
        var withImage = group
        withImage.avatar = NotificationImage(url: "file:///home/ada/team.png")
        let own = try #require(mapping.bubble(for: Self.notification(NotificationContent(title: "Team", communication: withImage))))
        #expect(own.image == .file(path: "/home/ada/team.png"))
    }

    // MARK: Inline reply

    static let replyActions = [
        PresentedAction(identifier: "like", title: "Like"),
        PresentedAction(identifier: "reply", title: "Reply", textInput: ["buttonTitle": "Send", "placeholder": "Message"]),
        PresentedAction(identifier: "reply-all", title: "Reply all", textInput: ["buttonTitle": "Send", "placeholder": "To all"]),
    ]

    @Test func aTextInputActionIsAnInlineReplyWhereTheServerHasOne() throws {
        let content = NotificationContent(title: "Ada", categoryIdentifier: "message")
        let kde = NotificationMapping(capabilities: ServerCapabilities(["body", "actions", "inline-reply"]))
        let bubble = try #require(kde.bubble(for: Self.notification(content, actions: Self.replyActions)))
        // One text field per bubble: the first text-input action.
        #expect(bubble.arguments.actions == ["default", "Open", "like", "Like", "inline-reply", "Reply", "herald-snooze", "Snooze 1 hour"])
        #expect(bubble.actionKeys["inline-reply"] == "reply")
        #expect(bubble.inlineReplyAction == "reply")
        #expect(bubble.arguments.hint("x-kde-reply-placeholder-text") == .string("Message"))
        #expect(bubble.arguments.hint("x-kde-reply-submit-button-text") == .string("Send"))
    }

    @Test func elsewhereATextInputActionIsNotOffered() throws {
        let content = NotificationContent(title: "Ada", categoryIdentifier: "message")
        let dunst = NotificationMapping(capabilities: ServerCapabilities(["body", "actions", "x-dunst-stack-tag"]))
        let bubble = try #require(dunst.bubble(for: Self.notification(content, actions: Self.replyActions)))
        #expect(bubble.arguments.actions == ["default", "Open", "like", "Like", "herald-snooze", "Snooze 1 hour"])
        #expect(bubble.inlineReplyAction == nil)
        #expect(bubble.arguments.hint("x-kde-reply-placeholder-text") == nil)
        // Without actions at all, not even on KDE.
        let none = NotificationMapping(capabilities: ServerCapabilities(["body", "inline-reply"]))
        #expect(try #require(none.bubble(for: Self.notification(content, actions: Self.replyActions))).inlineReplyAction == nil)
    }
}
