import HeraldClient
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

private let app = "org.example.chat"
private let ann = Person(handle: PersonHandle(value: "ann@example.org", type: .emailAddress), displayName: "Ann Lee")

private func incoming(_ identifier: String, _ content: String = "Lunch?") -> Interaction {
    Interaction(
        identifier: identifier, direction: .incoming,
        intent: .sendMessageIntent(SendMessageIntent(sender: ann, content: content, conversationIdentifier: "c-ann"))
    )
}

/// The Swift client against the real heraldd (`$HERALDD`), started as systemd starts it.
@Suite("HeraldClient against heraldd")
struct HeraldClientTests {
    @Test("Typed calls: donate, then update-content makes a communication notification from the sender")
    func typedCalls() async throws {
        let heraldd = try HeraldProcess()
        let herald = try await HeraldClient.connect(.init(socketPath: heraldd.socketPath))
        let donated = try await herald.donate(app: app, interaction: incoming("m-17"))
        #expect(donated.identifier == "m-17")
        let updated = try await herald.updateContent(
            app: app, interactionIdentifier: "m-17", content: NotificationContent(title: "New message", body: "Lunch?")
        )
        #expect(updated.content.title == "Ann Lee")
        #expect(updated.content.communication?.sender?.displayName == "Ann Lee")
        #expect([Presentation.alert, .quiet, .summary].contains(updated.delivery.presentation))
        await herald.close()
    }

    @Test("A bad param is a HeraldError with its code, pointer and reason, and the connection goes on")
    func typedError() async throws {
        let heraldd = try HeraldProcess()
        let herald = try await HeraldClient.connect(.init(socketPath: heraldd.socketPath))
        let misspelt = HeraldJSON.object(["name": .string("Work"), "alowedPeople": .array([])])
        let error = await #expect(throws: HeraldError.self) {
            let _: HeraldJSON = try await herald.call("set-focus", params: [("focus", misspelt)])
        }
        #expect(error?.kind == .answered)
        #expect(error?.code == -32602)
        #expect(error?.pointer == "/focus/alowedPeople")
        #expect(error?.reason?.contains("allowedPeople") == true)

        let unknown = await #expect(throws: HeraldError.self) {
            _ = try await herald.updateContent(app: app, interactionIdentifier: "never-donated", content: NotificationContent(body: "x"))
        }
        #expect(unknown?.code == 1001)
        #expect(unknown?.pointer == "/interactionIdentifier")
        #expect(try await herald.donate(app: app, interaction: incoming("m-1")).identifier == "m-1")
        await herald.close()
    }

    @Test("The protocol version is checked against rpc.discover's info.version")
    func protocolVersion() async throws {
        let heraldd = try HeraldProcess()
        let herald = try await HeraldClient.connect(.init(socketPath: heraldd.socketPath))
        #expect(try await herald.daemonProtocolVersion() == HeraldClient.protocolVersion)
        try await herald.requireProtocol()
        let numbers = HeraldClient.protocolVersion.split(separator: ".").compactMap { Int($0) }
        let newer = await #expect(throws: HeraldError.self) { try await herald.requireProtocol("\(numbers[0]).\(numbers[1] + 1)") }
        #expect(newer?.kind == .incompatibleProtocol)
        let nextMajor = await #expect(throws: HeraldError.self) { try await herald.requireProtocol("\(numbers[0] + 1).0") }
        #expect(nextMajor?.kind == .incompatibleProtocol)
        await herald.close()
    }

    @Test("A Focus subscription (get-focus, subscribe) sees another connection turn a Focus on")
    func focusSubscription() async throws {
        let heraldd = try HeraldProcess()
        let herald = try await HeraldClient.connect(.init(socketPath: heraldd.socketPath))
        let focus = try await herald.activeFocusChanges()
        #expect(focus.current.active == nil)

        let person = try await HeraldClient.connect(.init(socketPath: heraldd.socketPath))
        _ = try await person.setFocus(focus: FocusConfiguration(name: "Work", allowedPeople: [ann]))
        let change = await first(of: focus.changes) { $0.focus != nil ? $0 : nil }
        #expect(change?.focus == "Work")
        await person.close()
        await herald.close()
    }

    @Test("A responses subscription hands the app the person's reply with its text")
    func responsesSubscription() async throws {
        let heraldd = try HeraldProcess()
        let herald = try await HeraldClient.connect(.init(socketPath: heraldd.socketPath))
        let reply = NotificationAction(identifier: "reply", title: "Reply", textInput: NotificationTextInput(buttonTitle: "Send", placeholder: "Message"))
        _ = try await herald.setNotificationCategories(app: app, categories: [NotificationCategory(identifier: "message", actions: [reply])])
        _ = try await herald.donate(app: app, interaction: incoming("m-2"))
        _ = try await herald.updateContent(
            app: app, identifier: "m-2", interactionIdentifier: "m-2", content: NotificationContent(body: "Lunch?", categoryIdentifier: "message")
        )
        let responses = try await herald.responses(app: app)
        #expect(responses.current.pending == 0)

        let person = try await HeraldClient.connect(.init(socketPath: heraldd.socketPath))
        _ = try await person.respondToNotification(app: app, identifier: "m-2", actionIdentifier: "reply", userText: "On my way")
        let response = await first(of: responses.changes) { $0 }
        #expect(response?.identifier == "m-2")
        #expect(response?.userText == "On my way")
        await person.close()
        await herald.close()
    }

    @Test("After heraldd restarts, the client reconnects and its subscriptions hear again")
    func reconnectionSubscribesAgain() async throws {
        let held = try HeldSocket()
        var daemon = try held.startDaemon()
        var configuration = HeraldClient.Configuration(socketPath: held.socketPath)
        configuration.initialDelay = .milliseconds(20)
        let herald = try await HeraldClient.connect(configuration)
        let events = herald.events()
        _ = try await herald.requestFocus(app: app, subscribe: true)

        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(timeout: 30) != nil)
        daemon = try held.startDaemon()
        let reconnected = await first(of: events) { event -> Bool? in event == .reconnected ? true : nil }
        #expect(reconnected == true)

        let person = try await HeraldClient.connect(.init(socketPath: held.socketPath))
        _ = try await person.setFocusAuthorization(app: app, status: .denied)
        let change = await first(of: events) { event -> FocusChangedParams? in
            if case .focusChanged(let change) = event { return change }
            return nil
        }
        #expect(change?.authorizationStatus == .denied)
        await person.close()
        await herald.close()
        daemon.signal(SIGTERM)
        _ = daemon.waitForExit(timeout: 30)
    }
}
