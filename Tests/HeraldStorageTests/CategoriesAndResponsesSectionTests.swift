import Foundation
import HeraldCore
import HeraldProtocol
import Testing

@testable import HeraldStorage

@Suite("The categories and responses sections")
struct CategoriesAndResponsesSectionTests {
    typealias F = SnapshotFixtures

    static let category = NotificationCategory(
        identifier: "message",
        actions: [
            NotificationAction(
                identifier: "reply", title: "Reply", options: [.foreground], icon: NotificationActionIcon(systemImageName: "arrowshape.turn.up.left"),
                textInput: NotificationTextInput(buttonTitle: "Send", placeholder: "Message")
            ),
            NotificationAction(identifier: "like", title: "Like", icon: NotificationActionIcon(templateImageName: "heart")),
        ],
        options: [.customDismissAction],
        hiddenPreviewsBodyPlaceholder: "New message"
    )

    private static func restored(_ state: HeraldState) throws -> HeraldState {
        var state = try SnapshotFile.decode(try F.file(state)).state
        state.configuration = CoreConfiguration(timeZone: .utc)
        return state
    }

    @Test("Categories and waiting responses come back as they were, and the app hears them after a restart")
    func roundTrip() throws {
        var state = try F.fullState()
        _ = try state.setNotificationCategories(.init(app: F.app, categories: [Self.category]), caller: F.user)
        _ = try state.setNotificationCategories(.init(app: F.otherApp, categories: [Self.category]), caller: F.otherUser)
        var content = NotificationContent(title: "Ann", body: "Lunch?")
        content.categoryIdentifier = "message"
        for identifier in ["r1", "r2"] {
            _ = try state.updateContent(UpdateContentParams(app: F.app, identifier: identifier, content: content), caller: F.user, now: F.now)
        }
        _ = try state.respondToNotification(
            RespondToNotificationParams(app: F.app, identifier: "r1", actionIdentifier: "reply", userText: "Yes"), caller: F.user, now: F.now + 2
        ) { _, _ in false }
        var back = try Self.restored(state)
        #expect(back.storedCategories.map(\.categories) == state.storedCategories.map(\.categories))
        #expect(back.storedCategories.map(\.uid) == [F.user.uid, F.otherUser.uid])
        #expect(try back.getNotificationCategories(.init(app: F.app), caller: F.user).result.categories == [Self.category])
        let waiting = try back.subscribeResponses(.init(app: F.app), caller: F.user).pending
        #expect(waiting.count == 1 && waiting.first?.userText == "Yes" && waiting.first?.notification.actions == Self.category.actions)
        #expect(waiting.first?.respondedAt == F.now + 2)
        // r2 came back with its category: it is answered as before.
        let answered = try back.respondToNotification(
            RespondToNotificationParams(app: F.app, identifier: "r2", actionIdentifier: "dismiss"), caller: F.user, now: F.now + 3
        ) { _, _ in true }
        #expect(answered.outcome.result.response == .delivered)
    }

    @Test("A set twice, an empty set, or a response of another app is damage")
    func damageIsRefused() {
        var state = HeraldState()
        let twice = state.restoreCategories([(uid: 1, app: "a", categories: [Self.category]), (uid: 1, app: "a", categories: [Self.category])])
        var empty = HeraldState()
        let emptySet = empty.restoreCategories([(uid: 1, app: "a", categories: [])])
        var duplicates = HeraldState()
        let duplicated = duplicates.restoreCategories([(uid: 1, app: "a", categories: [Self.category, Self.category])])
        #expect(!twice && !emptySet && !duplicated)
        let notification = HeraldNotification(
            identifier: "n", app: "b", content: NotificationContent(), delivery: Delivery(presentation: .alert), state: .delivered, receivedAt: F.now
        )
        let response = NotificationResponse(app: "b", identifier: "n", actionIdentifier: "default", userText: nil, notification: notification, respondedAt: F.now)
        var other = HeraldState()
        let anotherApps = other.restorePendingResponses([.init(uid: 1, app: "a", responses: [response], dropped: 0)])
        var fine = HeraldState()
        let restored = fine.restorePendingResponses([.init(uid: 1, app: "b", responses: [response], dropped: 3)])
        #expect(!anotherApps && restored)
    }
}
