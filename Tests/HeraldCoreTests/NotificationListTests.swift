import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

@Suite struct NotificationListTests {
    typealias F = Fixtures

    /// A state whose summary holds F.app at 09:00 and 18:00 (F.now is 08:00 UTC).
    private func summaryState(_ configure: (inout CoreConfiguration) -> Void = { _ in }) throws -> HeraldState {
        var configuration = CoreConfiguration(timeZone: .utc)
        configure(&configuration)
        var state = F.state(configuration)
        for uid in [F.user.uid, F.otherUser.uid] {
            _ = try state.setSummary(.init(apps: [F.app], times: ["09:00", "18:00:30"], uid: uid), caller: F.admin, now: F.now)
        }
        return state
    }

    @discardableResult
    private func put(
        _ state: inout HeraldState, _ identifier: String?, _ content: NotificationContent = F.content(),
        app: String = F.otherApp, caller: Caller = F.user, now: Date = F.now
    ) throws -> UpdateContentResult {
        try state.updateContent(UpdateContentParams(app: app, identifier: identifier, content: content), caller: caller, now: now).result
    }

    private func list(_ state: HeraldState, app: String? = F.otherApp, _ status: NotificationState? = nil, caller: Caller = F.user) throws
        -> [HeraldNotification]
    {
        try state.listNotifications(ListNotificationsParams(app: app, state: status), caller: caller).result.notifications
    }

    @Test func anIdentifierIsGeneratedOrChecked() throws {
        var state = F.state()
        let generated = try put(&state, nil).identifier
        #expect(UUID(uuidString: generated) != nil && generated == generated.lowercased())
        #expect(try put(&state, "n1").identifier == "n1")
        for bad in ["", String(repeating: "x", count: 256)] {
            let error = ruleError { try put(&state, bad) }
            #expect(error?.code == .invalidParams && error?.path == ["identifier"])
        }
        #expect(try put(&state, String(repeating: "é", count: 255)).identifier.count == 255)
    }

    @Test func alertsAndQuietOnesAreDeliveredHeldOnesScheduled() throws {
        var state = try summaryState()
        try put(&state, "alert", app: F.otherApp)
        try put(&state, "quiet", F.content(.passive), app: F.otherApp)
        try put(&state, "held", app: F.app, now: F.now + 1)
        let other = try list(state)
        #expect(other.map(\.identifier) == ["quiet", "alert"] || other.map(\.identifier) == ["alert", "quiet"])
        #expect(other.allSatisfy { $0.state == .delivered && $0.deliveredAt == F.now && $0.receivedAt == F.now })
        let held = try list(state, app: F.app)
        #expect(held.count == 1 && held[0].state == .scheduled && held[0].deliveredAt == nil)
        #expect(held[0].delivery.deliverAt == F.now + 3600)
        #expect(try list(state, app: F.app, .delivered).isEmpty)
    }

    @Test func theSameIdentifierReplaces() throws {
        var state = try summaryState()
        try put(&state, "a", F.content(title: "one"))
        try put(&state, "b", now: F.now + 1)
        try put(&state, "a", F.content(title: "two"), now: F.now + 5)
        var listed = try list(state)
        #expect(listed.map(\.identifier) == ["b", "a"], "a delivered one is replaced in place")
        #expect(listed[1].content.title == "two" && listed[1].deliveredAt == F.now + 5 && listed[1].receivedAt == F.now)
        // The same identifier in another app or uid is another notification.
        try put(&state, "a", app: F.app)
        try put(&state, "a", caller: F.otherUser)
        #expect(try list(state).count == 2)
        // A scheduled one replaced by an alert follows its new decision.
        try put(&state, "h", app: F.app)
        try put(&state, "h", F.content(.timeSensitive), app: F.app, now: F.now + 9)
        listed = try list(state, app: F.app)
        #expect(listed.first { $0.identifier == "h" }?.state == .delivered)
        #expect(try list(state, app: F.app, .scheduled).map(\.identifier) == ["a"])
    }

    @Test func theOldestDeliveredGoFirstAndAFullScheduledListRefuses() throws {
        var state = try summaryState { $0.maxNotificationsPerUID = 3 }
        try put(&state, "held", app: F.app)
        for (index, name) in ["d1", "d2", "d3"].enumerated() {
            try put(&state, name, now: F.now + Double(index))
        }
        #expect(try list(state).map(\.identifier) == ["d3", "d2"])
        #expect(state.notificationsDropped.evicted == 1)
        try put(&state, "d2", F.content(title: "again"), now: F.now + 10)  // a replacement evicts nothing
        try put(&state, "d4", now: F.now + 11)
        #expect(try list(state).map(\.identifier) == ["d4", "d2"], "d3 was delivered before d2's replacement")
        var full = try summaryState { $0.maxNotificationsPerUID = 2 }
        try put(&full, "h1", app: F.app)
        try put(&full, "h2", app: F.app)
        let error = ruleError { try put(&full, "h3", app: F.app) }
        #expect(error?.code == .invalidParams && error?.limit == 2)
        #expect(try list(full, app: F.app).count == 2)
        // Another uid has a list of its own.
        try put(&full, "h3", app: F.app, caller: F.otherUser)
    }

    @Test func theListStaysWithinItsBytesOldestDeliveredFirst() throws {
        /// A notification of about 10,000 bytes.
        func heavy(_ title: String) -> NotificationContent { F.content(title: title + String(repeating: "x", count: 10_000)) }
        let each = NotificationBytes.of(identifier: "d1", content: heavy("d1"))
        #expect(each > 10_000 && each < 10_600)
        var state = try summaryState { $0.maxNotificationBytesPerUID = 3 * each + each / 2 }
        for (index, name) in ["d1", "d2", "d3", "d4", "d5"].enumerated() {
            try put(&state, name, heavy(name), now: F.now + Double(index))
        }
        #expect(try list(state).map(\.identifier) == ["d5", "d4", "d3"], "the oldest delivered went first")
        #expect(state.notificationsDropped.evicted == 2)
        // A light one fits beside them; a heavy replacement of a kept one evicts the oldest.
        try put(&state, "light", now: F.now + 10)
        try put(&state, "d4", heavy("d4") , now: F.now + 11)
        #expect(try list(state).map(\.identifier).sorted() == ["d3", "d4", "d5", "light"])
        try put(&state, "d6", heavy("d6"), now: F.now + 12)
        #expect(try list(state).map(\.identifier).sorted() == ["d4", "d5", "d6", "light"])

        // One heavier than the whole limit is refused, at the content; the list is unchanged.
        var tooHeavy = ruleError { try put(&state, "huge", F.content(title: String(repeating: "x", count: 40_000)), now: F.now + 13) }
        #expect(tooHeavy?.code == .invalidParams && tooHeavy?.path == ["content"] && tooHeavy?.limit == 3 * each + each / 2)
        #expect(try list(state).count == 4)

        // Scheduled ones are never evicted for bytes: one that would not fit beside them is refused.
        var held = try summaryState { $0.maxNotificationBytesPerUID = 2 * each + each / 2 }
        try put(&held, "h1", heavy("h1"), app: F.app)
        try put(&held, "h2", heavy("h2"), app: F.app)
        tooHeavy = ruleError { try put(&held, "d1", heavy("d1")) }
        #expect(tooHeavy?.code == .invalidParams && tooHeavy?.path == ["identifier"])
        #expect(try list(held, app: F.app, .scheduled).count == 2)
        try put(&held, "small", now: F.now + 1)  // a light one still fits
    }

    /// The server makes the presenters' copy from the listing after the state's lock, and
    /// frees what the list took out there: both must be what the list itself holds.
    @Test func theListingIsTheNotificationAsListedWithWhatWasTakenOut() throws {
        var state = try summaryState { $0.maxNotificationsPerUID = 2 }
        /// update-content's listing, once its notification is checked against the list's.
        func put(_ identifier: String, _ content: NotificationContent = F.content(), app: String = F.otherApp, now: Date)
            throws -> (notification: HeraldNotification, removed: HeraldNotification?)
        {
            let params = UpdateContentParams(app: app, identifier: identifier, content: content)
            let (outcome, listing) = try state.updateContentListing(params, caller: F.user, now: now)
            let presented = listing.notification(outcome.result, app: app)
            #expect(presented == state.notification(uid: F.user.uid, app: app, identifier: identifier))
            #expect(listing.removed.count <= 1)
            return (presented, listing.removed.first?.notification)
        }
        #expect(try put("a", now: F.now).removed == nil)
        let replaced = try put("a", F.content(title: "two"), now: F.now + 5)
        #expect(replaced.removed?.content.title == F.content().title, "the replaced one is handed back")
        #expect(replaced.notification.receivedAt == F.now && replaced.notification.deliveredAt == F.now + 5)
        let held = try put("held", app: F.app, now: F.now + 6).notification
        #expect(held.state == .scheduled && held.deliveredAt == nil && held.receivedAt == F.now + 6)
        let evicting = try put("b", now: F.now + 7)
        #expect(evicting.removed?.identifier == "a" && evicting.removed?.content.title == "two")
        #expect(state.notificationsDropped.evicted == 1)
    }

    @Test func retentionForgetsDeliveredOnesOnly() throws {
        var state = try summaryState { $0.retention = 100 }
        try put(&state, "old")
        try put(&state, "held", app: F.app)
        try put(&state, "new", now: F.now + 50)
        state.pruneExpired(now: F.now + 120)
        #expect(try list(state).map(\.identifier) == ["new"])
        #expect(try list(state, app: F.app).map(\.identifier) == ["held"])
        #expect(state.notificationsDropped.expired == 1)
    }

    @Test func retentionForgetsNotificationsAStepAtATimeAfterInteractions() throws {
        var state = try summaryState { $0.retention = 100 }
        try state.donate(F.message("m0"), now: F.now)
        for index in 0..<3 { try put(&state, "mine-\(index)", now: F.now + Double(index)) }
        for index in 0..<2 { try put(&state, "theirs-\(index)", caller: F.otherUser, now: F.now + Double(index)) }
        try put(&state, "new", now: F.now + 90)
        let steps = (0..<4).map { _ in state.pruneExpired(now: F.now + 150, atMost: 2) }
        // The interaction and one notification, then two, then the last two: at most two a step.
        #expect(steps.map(\.pruned) == [2, 2, 2, 0])
        #expect(steps.map(\.isComplete) == [false, false, true, true])
        #expect(state.interactionCount == 0)
        #expect(try list(state).map(\.identifier) == ["new"])
        #expect(try list(state, caller: F.otherUser).isEmpty)
        #expect(state.notificationsDropped.expired == 5)
    }

    @Test func theDeliveredOrderStaysBoundedAndOldestFirstAcrossItsCompactions() throws {
        var state = try summaryState { $0.maxNotificationsPerUID = 20 }
        var kept: [String] = []  // oldest delivered first: the next to be evicted
        for index in 0..<400 {
            // Stretches of plain evictions, where a compaction finds nothing stale, and
            // stretches that also replace a kept one, whose old element turns stale.
            let replacing = (index / 100) % 2 == 1 && index % 3 == 0
            let identifier = replacing ? kept[index % kept.count] : "n\(index)"
            try put(&state, identifier, now: F.now + Double(index))
            kept.removeAll { $0 == identifier }
            kept.append(identifier)
            if kept.count > 20 { kept.removeFirst() }
            // Listed by when each was first received; evicted by when each was delivered.
            #expect(Set(try list(state).map(\.identifier)) == Set(kept), "after \(identifier)")
            // What a compaction leaves, and what may come before the next: the delivered,
            // up to 64 or as many more, and the one just added.
            let uidList = try #require(state.notifications.lists[F.user.uid])
            #expect(uidList.deliveredOrder.count <= 20 + 64 + 1, "stale elements are dropped after \(identifier)")
            if index < 100 {
                // Before any replacement, the evicted one's element is passed at once: from
                // the head on, one element for each delivered and no stale one to look up.
                #expect(uidList.deliveredOrder.count - uidList.head == min(index + 1, 20), "after \(identifier)")
            }
        }
        // Below its limit nothing is evicted, and only looking the keys up finds the
        // elements that replacements left stale.
        var below = try summaryState { $0.maxNotificationsPerUID = 20 }
        for index in 0..<400 {
            try put(&below, "r\(index % 10)", now: F.now + Double(index))
            let order = try #require(below.notifications.lists[F.user.uid]).deliveredOrder
            #expect(order.count <= 10 + 64 + 1, "stale elements are dropped after \(index) replacements")
        }
        #expect(try list(below).count == 10)
    }

    @Test func aSummaryIsDeliveredWithoutCopyingTheList() throws {
        var state = try summaryState()
        for index in 0..<10 { try put(&state, "n\(index)", app: F.app, now: F.now + Double(index)) }
        let table = try storageIdentity(of: state.notifications.lists[F.user.uid]!.entries)
        #expect(state.deliverDueSummaries(now: F.now + 3600).first?.notifications.count == 10)
        // Changing the entries while a loop over them held the table copied all of it.
        #expect(try storageIdentity(of: state.notifications.lists[F.user.uid]!.entries) == table)
    }

    @Test func summariesAreDeliveredWhenDueRanked() throws {
        var state = try summaryState()
        let avatarLike = NotificationContent(title: "media", attachments: .array([.string("file:///a.png")]))
        try put(&state, "plain-old", app: F.app, now: F.now)
        try put(&state, "plain-new", app: F.app, now: F.now + 1)
        try put(&state, "scored", NotificationContent(title: "s", relevanceScore: 0.5), app: F.app, now: F.now + 2)
        try put(&state, "media", avatarLike, app: F.app, now: F.now + 3)
        try put(&state, "theirs", app: F.app, caller: F.otherUser, now: F.now + 4)
        #expect(state.deliverDueSummaries(now: F.now + 3599).isEmpty)
        let summaries = state.deliverDueSummaries(now: F.now + 3600)
        #expect(summaries.map(\.uid) == [F.user.uid, F.otherUser.uid])
        #expect(summaries[0].notifications.map(\.identifier) == ["scored", "media", "plain-new", "plain-old"])
        #expect(summaries[0].notifications.allSatisfy { $0.state == .delivered && $0.deliveredAt == F.now + 3600 })
        #expect(try list(state, app: F.app, .scheduled).isEmpty)
        #expect(state.deliverDueSummaries(now: F.now + 3601).isEmpty, "each is delivered once")
        // Held after 09:00: due at 18:00:30, not before.
        try put(&state, "evening", app: F.app, now: F.now + 3700)
        #expect(try list(state, app: F.app, .scheduled).first?.delivery.deliverAt == F.now + 10 * 3600 + 30)
        #expect(state.deliverDueSummaries(now: F.now + 10 * 3600 + 29).isEmpty)
        #expect(state.deliverDueSummaries(now: F.now + 10 * 3600 + 30).map(\.notifications.count) == [1])
    }

    @Test func communicationsRankBeforeOthersOnATieThenTheNewest() throws {
        func notification(_ identifier: String, _ content: NotificationContent, at seconds: Double) -> HeraldNotification {
            HeraldNotification(
                identifier: identifier, app: F.app, content: content, delivery: Delivery(presentation: .summary),
                state: .scheduled, receivedAt: F.now + seconds
            )
        }
        var communication = F.content()
        communication.communication = CommunicationInfo(type: .sendMessage, sender: F.ann)
        var withAvatar = communication
        withAvatar.communication?.avatar = F.avatar
        let older = notification("communication", communication, at: 0)
        let newer = notification("plain", F.content(), at: 1)
        let avatar = notification("avatar", withAvatar, at: -1)
        #expect(SummaryRanking.precedes(older, newer) && !SummaryRanking.precedes(newer, older))
        #expect(SummaryRanking.precedes(avatar, older), "an avatar counts as media")
        #expect(SummaryRanking.precedes(notification("n", F.content(), at: 2), newer), "then the newest first")
    }

    @Test func deliverSummaryDeliversEveryScheduledOneNow() throws {
        var state = try summaryState()
        try put(&state, "mine", app: F.app)
        try put(&state, "theirs", app: F.app, caller: F.otherUser)
        let (outcome, summaries) = try state.deliverSummary(.init(uid: F.otherUser.uid), caller: F.admin, now: F.now + 10)
        #expect(outcome.result.delivered == 1 && summaries.map(\.uid) == [F.otherUser.uid])
        #expect(try list(state, app: F.app, .scheduled).map(\.identifier) == ["mine"])
        #expect(try state.deliverSummary(.init(), caller: F.admin, now: F.now + 20).outcome.result.delivered == 1)
        #expect(state.deliverDueSummaries(now: F.now + 3600).isEmpty)
    }

    @Test func listingAndRemovalStayInTheCallersUID() throws {
        var state = F.state()
        try put(&state, "a")
        try put(&state, "b", now: F.now + 1)
        try put(&state, "c", app: F.app)
        try put(&state, "a", caller: F.otherUser)
        #expect(try list(state, caller: F.otherUser).map(\.identifier) == ["a"])
        // Without an app: the person's own list across their apps, never another uid's.
        #expect(try list(state, app: nil).map(\.identifier) == ["b", "c", "a"])
        let denied = ruleError { try state.listNotifications(.init(app: F.otherApp, uid: F.otherUser.uid), caller: F.user) }
        #expect(denied?.code == .permissionDenied && denied?.path == ["uid"])
        #expect(try state.listNotifications(.init(app: nil, uid: F.user.uid), caller: F.admin).result.notifications.count == 3)
        #expect(try state.listNotifications(.init(app: F.otherApp, limit: 1), caller: F.user).result.notifications.map(\.identifier) == ["b"])
        // Another uid's identifier is one that never existed: 0 removed.
        let (theirs, _) = try state.removeNotifications(.init(app: F.otherApp, identifiers: ["zz"]), caller: F.otherUser)
        #expect(theirs.result.removed == 0)
        let (mine, events) = try state.removeNotifications(.init(app: F.otherApp, identifiers: ["a", "zz"]), caller: F.user)
        #expect(mine.result.removed == 1 && events == [NotificationsRemoved(uid: F.user.uid, app: F.otherApp, identifiers: ["a"])])
        #expect(try list(state, caller: F.otherUser).map(\.identifier) == ["a"])
        let (all, allEvents) = try state.removeNotifications(.init(app: nil, all: true, uid: F.user.uid), caller: F.admin)
        #expect(all.result.removed == 2 && allEvents.count == 2)
        #expect(state.notificationCount == 1)
        let cases: [(RemoveNotificationsParams, MemberPath)] = [
            (RemoveNotificationsParams(app: F.app), ["identifiers"]),
            (RemoveNotificationsParams(app: F.app, identifiers: ["a"], all: true), ["all"]),
            (RemoveNotificationsParams(app: F.app, identifiers: [""]), ["identifiers", 0]),
            (RemoveNotificationsParams(app: nil, identifiers: ["a"]), ["app"]),
        ]
        for (params, path) in cases {
            #expect(ruleError { try state.removeNotifications(params, caller: F.user) }?.path == path)
        }
    }

    @Test func aPresenterPresentsItsOwnUIDUnlessAdministrator() throws {
        #expect(try HeraldState.presenterUID(.init(), caller: F.user) == F.user.uid)
        #expect(try HeraldState.presenterUID(.init(uid: F.user.uid), caller: F.user) == F.user.uid)
        #expect(ruleError { try HeraldState.presenterUID(.init(uid: F.otherUser.uid), caller: F.user) }?.code == .permissionDenied)
        #expect(try HeraldState.presenterUID(.init(), caller: F.admin) == nil)
        #expect(try HeraldState.presenterUID(.init(uid: 7), caller: F.admin) == 7)
    }

    /// The snapshot keeps the lists through `storedNotifications` and `restoreNotifications`
    /// (its encoding is HeraldStorage's, tested there).
    @Test func theListsSurviveBeingStoredAndRestored() throws {
        var state = try summaryState { $0.maxNotificationsPerUID = 3 }
        try put(&state, "d1")
        try put(&state, "held", app: F.app, now: F.now + 1)
        try put(&state, "d2", now: F.now + 2)
        try put(&state, "d1", now: F.now + 3)
        try put(&state, "x", caller: F.otherUser)
        var restored = HeraldState(configuration: state.configuration)
        let restoredAll = restored.restoreNotifications(state.storedNotifications)
        #expect(restoredAll)
        do {
            #expect(try list(restored) == list(state))
            #expect(try list(restored, app: F.app) == list(state, app: F.app))
            #expect(try list(restored, caller: F.otherUser) == list(state, caller: F.otherUser))
            // The eviction order survives: d2 was delivered before d1's replacement.
            try put(&restored, "d3", now: F.now + 4)
            #expect(try list(restored).map(\.identifier) == ["d3", "d1"])
        }
    }

    @Test func aNotificationListedTwiceIsNotRestored() throws {
        var state = try summaryState { _ in }
        try put(&state, "d1")
        var restored = HeraldState()
        let restoredTwice = restored.restoreNotifications(state.storedNotifications + state.storedNotifications)
        #expect(!restoredTwice)
        #expect(restored.storedNotifications.isEmpty)
    }
}
