import Foundation
import HeraldClient

/// A small messaging app on Herald in Swift: the shorter counterpart of examples/python-chat
/// and of Apple's sample "Handling Communication Notifications and Focus Status Updates".
///
/// Ann's chat app: donates Bob's message with its sender and updates the notification's
/// content from it, donates Ann's answer, reads and follows her Focus status ("Ann has
/// notifications silenced"), and sends the person's reply to the notification as her
/// message. It recovers when heraldd restarts (HeraldClient reconnects and subscribes again).
///
/// Usage: herald-chat-example [--socket PATH] [--replies N]
@main
struct Chat {
    static let app = "org.example.chat"
    static let bob = Person(handle: PersonHandle(value: "bob@example.org", type: .emailAddress), displayName: "Bob Stone")
    static let carol = Person(handle: PersonHandle(value: "carol@example.org", type: .emailAddress), displayName: "Carol Diaz")

    static func main() async {
        let arguments = CommandLine.arguments
        func value(of flag: String) -> String? { arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil } }
        do {
            try await run(socketPath: value(of: "--socket"), replies: value(of: "--replies").flatMap { Int($0) })
        } catch {
            say("heraldd refused: \(error)")
            exit(1)
        }
    }

    static func run(socketPath: String?, replies wanted: Int?) async throws(HeraldError) {
        let herald = try await HeraldClient.connect(.init(socketPath: socketPath))
        try await herald.requireProtocol("1.0")
        let events = herald.events()

        let reply = NotificationAction(identifier: "reply", title: "Reply", textInput: NotificationTextInput(buttonTitle: "Send", placeholder: "Message"))
        _ = try await herald.setNotificationCategories(app: app, categories: [NotificationCategory(identifier: "message", actions: [reply])])
        let focus = try await herald.requestFocus(app: app, requestAuthorization: true, subscribe: true)
        show(focus.authorizationStatus, focus.focusStatus)
        _ = try await herald.subscribeResponses(app: app)

        // An incoming message: donate it with its sender, then let Herald make the notification from it.
        _ = try await herald.donate(app: app, interaction: message("m-1", .incoming, "Lunch at noon?", sender: bob))
        let note = try await herald.updateContent(
            app: app, identifier: "m-1", interactionIdentifier: "m-1",
            content: NotificationContent(body: "Lunch at noon?", categoryIdentifier: "message")
        )
        say("notification m-1: \(note.content.title ?? "") (\(note.content.subtitle ?? "")): \(note.content.body ?? "") [\(note.delivery.presentation)]")
        _ = try await herald.donate(app: app, interaction: message("m-2", .outgoing, "Sounds good"))
        say("sent m-2: Sounds good")
        say("ready")

        var replies = 0
        for await event in events {
            switch event {
            case .focusChanged(let change):
                show(change.authorizationStatus, change.focusStatus)
            case .notificationResponse(let response) where response.actionIdentifier == "reply":
                replies += 1
                let text = response.userText ?? ""
                _ = try await herald.donate(app: app, interaction: message("reply-\(replies)", .outgoing, text))
                say("replied to \(response.identifier): \(text)")
            case .reconnected:
                let focus = try await herald.requestFocus(app: app)
                say("reconnected")
                show(focus.authorizationStatus, focus.focusStatus)
            default:
                break
            }
            if let wanted, replies >= wanted { break }
        }
        await herald.close()
    }

    /// A message of the group conversation; Ann herself is never one of its people.
    static func message(_ identifier: String, _ direction: InteractionDirection, _ content: String, sender: Person? = nil) -> Interaction {
        let intent = SendMessageIntent(
            sender: sender, recipients: [bob, carol].filter { $0 != sender }, content: content,
            speakableGroupName: "Lunch crew", conversationIdentifier: "lunch-crew"
        )
        return Interaction(identifier: identifier, groupIdentifier: "lunch-crew", direction: direction, intent: .sendMessageIntent(intent))
    }

    /// The app's view of Ann's Focus, as the seeds' sample shows it to her contacts.
    static func show(_ authorization: AuthorizationStatus, _ status: FocusStatus?) {
        guard let status else { return say("focus status not shared (authorization: \(authorization))") }
        say(status.isFocused ? "Ann has notifications silenced" : "Ann is available")
    }

    /// One line of what the app shows, written at once (its test reads them as they come).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
