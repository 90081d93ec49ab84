import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct CategoriesAndResponsesTests {
    typealias F = Fixtures

    static let reply = NotificationAction(
        identifier: "reply", title: "Reply", icon: NotificationActionIcon(systemImageName: "arrowshape.turn.up.left"),
        textInput: NotificationTextInput(buttonTitle: "Send", placeholder: "Message")
    )
    static let like = NotificationAction(identifier: "like", title: "Like", options: [.foreground], icon: NotificationActionIcon(templateImageName: "heart"))
    static let message = NotificationCategory(identifier: "message", actions: [reply, like], options: [.customDismissAction])
    static let plain = NotificationCategory(identifier: "plain", actions: [like])

    private func set(_ state: inout HeraldState, _ categories: [NotificationCategory], app: String = F.app, caller: Caller = F.user) throws {
        _ = try state.setNotificationCategories(SetNotificationCategoriesParams(app: app, categories: categories), caller: caller)
    }

    @discardableResult
    private func post(_ state: inout HeraldState, _ identifier: String, category: String?, caller: Caller = F.user) throws -> UpdateContentResult {
        var content = F.content()
        content.categoryIdentifier = category
        return try state.updateContent(UpdateContentParams(app: F.app, identifier: identifier, content: content), caller: caller, now: F.now).result
    }

    private func respond(
        _ state: inout HeraldState, _ identifier: String, _ action: String, text: String? = nil, caller: Caller = F.user, uid: UInt32? = nil,
        listening: Bool = false
    ) throws -> RespondedNotification {
        try state.respondToNotification(
            RespondToNotificationParams(app: F.app, identifier: identifier, actionIdentifier: action, userText: text, uid: uid),
            caller: caller, now: F.now + 5
        ) { _, _ in listening }
    }

    @Test func categoriesAreTheCallersOwnAndReplaced() throws {
        var state = F.state()
        try set(&state, [Self.message, Self.plain])
        let mine = try state.getNotificationCategories(.init(app: F.app), caller: F.user).result.categories
        #expect(mine == [Self.message, Self.plain])
        #expect(try state.getNotificationCategories(.init(app: F.app), caller: F.otherUser).result.categories.isEmpty)
        try set(&state, [Self.plain])
        #expect(try state.getNotificationCategories(.init(app: F.app), caller: F.user).result.categories == [Self.plain])
        try set(&state, [])
        #expect(try state.getNotificationCategories(.init(app: F.app), caller: F.user).result.categories.isEmpty)
    }

    @Test func badCategoriesNameTheMemberAtFault() throws {
        var state = F.state()
        let tooManyActions = NotificationCategory(
            identifier: "x", actions: (0..<11).map { NotificationAction(identifier: "a\($0)", title: "A") }
        )
        let cases: [([NotificationCategory], MemberPath, Int?)] = [
            ([Self.plain, Self.plain], ["categories", 1, "identifier"], nil),
            ([NotificationCategory(identifier: "x", actions: [Self.like, Self.like])], ["categories", 0, "actions", 1, "identifier"], nil),
            ([NotificationCategory(identifier: "x", actions: [NotificationAction(identifier: "default", title: "Open")])], ["categories", 0, "actions", 0, "identifier"], nil),
            ([NotificationCategory(identifier: "x", actions: [NotificationAction(identifier: "dismiss", title: "Go")])], ["categories", 0, "actions", 0, "identifier"], nil),
            ((0..<101).map { NotificationCategory(identifier: "c\($0)", actions: []) }, ["categories"], 100),
            ([tooManyActions], ["categories", 0, "actions"], 10),
            ([NotificationCategory(identifier: "", actions: [])], ["categories", 0, "identifier"], nil),
            ([NotificationCategory(identifier: "x", actions: [NotificationAction(identifier: "a", title: "")])], ["categories", 0, "actions", 0, "title"], nil),
            ([NotificationCategory(identifier: "x", actions: [NotificationAction(identifier: "a", title: "A", icon: NotificationActionIcon())])], ["categories", 0, "actions", 0, "icon"], nil),
            ([NotificationCategory(identifier: "x", actions: [], options: [.allowAnnouncement, .allowAnnouncement])], ["categories", 0, "options", 1], nil),
        ]
        for (categories, path, limit) in cases {
            let error = ruleError { try set(&state, categories) }
            #expect(error?.code == .invalidParams && error?.path == path && error?.limit == limit, "\(path)")
        }
        #expect(ruleError { try set(&state, [], app: "not an app") }?.path == ["app"])
    }

    @Test func aUidsCategoriesCountAgainstItsOwnShare() throws {
        var state = F.state(CoreConfiguration(maxAppsPerUID: 2))
        try set(&state, [Self.plain], app: "a.one")
        try set(&state, [Self.plain], app: "a.two")
        #expect(ruleError { try set(&state, [Self.plain], app: "a.three") }?.limit == 2)
        try set(&state, [Self.plain], app: "a.three", caller: F.otherUser)
        try set(&state, [], app: "a.two")
        try set(&state, [Self.plain], app: "a.three")
        var many = F.state()
        let hundred = (0..<100).map { NotificationCategory(identifier: "c\($0)", actions: []) }
        for index in 0..<10 { try set(&many, hundred, app: "app.n\(index)") }
        #expect(ruleError { try set(&many, [Self.plain], app: "app.more") }?.limit == CategoryRules.maxCategoriesPerUID)
        try set(&many, [Self.plain], app: "app.more", caller: F.otherUser)
    }

    @Test func aNotificationCarriesItsCategorysActionsWhenPresented() throws {
        var state = F.state()
        try set(&state, [Self.message])
        let known = try post(&state, "n1", category: "message")
        #expect(!known.delivery.reasons.contains { $0.code == .unknownCategory })
        let unknown = try post(&state, "n2", category: "nope")
        #expect(unknown.delivery.reasons.filter { $0.code == .unknownCategory }.count == 1)
        #expect(unknown.delivery.reasons.first?.code == .unknownCategory)
        try post(&state, "n3", category: nil)
        let listed = try state.listNotifications(ListNotificationsParams(app: F.app), caller: F.user).result.notifications
        let byID = Dictionary(uniqueKeysWithValues: listed.map { ($0.identifier, $0) })
        #expect(byID["n1"]?.actions == [Self.reply, Self.like])
        #expect(byID["n1"]?.categoryOptions == [.customDismissAction])
        #expect(byID["n2"]?.actions == nil && byID["n3"]?.actions == nil)
        // The category is looked up as it is presented: stored notifications carry no copy.
        #expect(state.storedNotifications.allSatisfy { $0.notification.actions == nil })
    }

    @Test func eachResponseKindRemovesTheNotificationAndWaitsOrGoes() throws {
        var state = F.state()
        try set(&state, [Self.message])
        for identifier in ["n1", "n2", "n3", "n4"] { try post(&state, identifier, category: "message") }
        let typed = try respond(&state, "n1", "reply", text: "On my way")
        #expect(typed.response.userText == "On my way" && typed.outcome.result.response == .pending)
        #expect(typed.response.notification.actions == [Self.reply, Self.like])
        #expect(typed.removed == NotificationsRemoved(uid: F.user.uid, app: F.app, identifiers: ["n1"]))
        #expect(try respond(&state, "n2", "like").response.userText == nil)
        #expect(try respond(&state, "n3", "default", listening: true).outcome.result.response == .delivered)
        #expect(try respond(&state, "n4", "dismiss").response.actionIdentifier == "dismiss")
        #expect(state.notificationCount == 0)
        let taken = try state.subscribeResponses(.init(app: F.app), caller: F.user)
        #expect(taken.pending.map(\.actionIdentifier) == ["reply", "like", "dismiss"])
        #expect(taken.outcome.result.pending == 3 && taken.outcome.result.dropped == 0)
        #expect(try state.subscribeResponses(.init(app: F.app), caller: F.user).pending.isEmpty)
    }

    @Test func responsesBreakingTheRulesAreRefused() throws {
        var state = F.state()
        try set(&state, [Self.message, Self.plain])
        try post(&state, "n1", category: "message")
        try post(&state, "p1", category: "plain")
        try post(&state, "u1", category: "unknown")
        let cases: [(String, String, String?, RuleError.Code, MemberPath)] = [
            ("gone", "default", nil, .notificationNotFound, ["identifier"]),
            ("n1", "nope", nil, .invalidParams, ["actionIdentifier"]),
            ("n1", "reply", nil, .invalidParams, ["userText"]),
            ("n1", "like", "text", .invalidParams, ["userText"]),
            ("n1", "default", "text", .invalidParams, ["userText"]),
            ("p1", "dismiss", nil, .invalidParams, ["actionIdentifier"]),
            ("u1", "like", nil, .invalidParams, ["actionIdentifier"]),
            ("", "default", nil, .invalidParams, ["identifier"]),
        ]
        for (identifier, action, text, code, path) in cases {
            let error = ruleError { try respond(&state, identifier, action, text: text) }
            #expect(error?.code == code && error?.path == path, "\(identifier) \(action)")
        }
        // Another uid: its own list has no such notification (nothing leaks), and naming the uid is not allowed.
        #expect(ruleError { try respond(&state, "n1", "default", caller: F.otherUser) }?.code == .notificationNotFound)
        #expect(ruleError { try respond(&state, "n1", "default", caller: F.otherUser, uid: F.user.uid) }?.code == .permissionDenied)
        #expect(state.notificationCount == 3)
        // An administrator answers for the uid; the response is the uid's own.
        let answered = try respond(&state, "u1", "default", caller: F.admin, uid: F.user.uid)
        #expect(answered.uid == F.user.uid)
        #expect(try state.subscribeResponses(.init(app: F.app), caller: F.otherUser).pending.isEmpty)
        #expect(try state.subscribeResponses(.init(app: F.app), caller: F.user).pending.count == 1)
    }

    @Test func atMostAHundredWaitPerAppTheOldestDroppedAndCounted() throws {
        var state = F.state()
        for index in 0..<105 {
            try post(&state, "n\(index)", category: nil)
            _ = try respond(&state, "n\(index)", "default")
        }
        let taken = try state.subscribeResponses(.init(app: F.app), caller: F.user)
        #expect(taken.outcome.result.dropped == 5 && taken.pending.count == 100)
        #expect(taken.pending.first?.identifier == "n5" && taken.pending.last?.identifier == "n104")
        #expect(state.pendingResponsesDropped.atAppLimit == 5)
    }

    @Test func aResponseWaitsAtMostTheRetentionThenCountsAsDropped() throws {
        var state = F.state()
        state.configuration.retention = 3600
        try post(&state, "n0", category: nil)
        try post(&state, "n1", category: nil)
        _ = try respond(&state, "n0", "default")
        // n1 is answered half an hour later.
        _ = try state.respondToNotification(
            RespondToNotificationParams(app: F.app, identifier: "n1", actionIdentifier: "default", userText: nil, uid: nil),
            caller: F.user, now: F.now + 1805
        ) { _, _ in false }
        #expect(state.pendingResponseCount == 2)
        // An hour after the first answer, to the second: it stays.
        state.pruneExpired(now: F.now + 5 + 3600)
        #expect(state.pendingResponseCount == 2)
        state.pruneExpired(now: F.now + 5 + 3601)
        #expect(state.pendingResponseCount == 1)
        let taken = try state.subscribeResponses(.init(app: F.app), caller: F.user)
        #expect(taken.pending.map(\.identifier) == ["n1"])
        #expect(taken.outcome.result.dropped == 1)
        #expect(state.pendingResponseCount == 0)
    }
}
