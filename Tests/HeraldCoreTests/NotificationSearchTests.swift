import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore

/// Issue 31: the person searches their notifications by words, newest first, paged.
@Suite struct NotificationSearchTests {
    typealias F = Fixtures

    private func add(
        _ state: inout HeraldState, _ identifier: String, title: String? = nil, body: String? = nil, app: String = F.app,
        caller: Caller = F.user, at seconds: Double
    ) throws {
        _ = try state.updateContent(
            UpdateContentParams(app: app, identifier: identifier, content: NotificationContent(title: title, body: body)),
            caller: caller, now: F.now + seconds)
    }

    private func search(
        _ state: HeraldState, _ query: String, app: String? = nil, since: Date? = nil, until: Date? = nil, limit: Int? = nil,
        cursor: String? = nil, state notificationState: NotificationState? = nil, caller: Caller = F.user, maxBytes: Int = .max
    ) throws -> ListNotificationsResult {
        let budget = PageBudget<HeraldNotification>(maxBytes: maxBytes) { $0.content.body?.utf8.count ?? 0 }
        return try state.notificationListView.searchNotifications(
            SearchNotificationsParams(
                query: query, app: app, state: notificationState, since: since, until: until, limit: limit, cursor: cursor),
            caller: caller, budget: budget
        ).result
    }

    private func found(_ state: HeraldState, _ query: String, app: String? = nil, since: Date? = nil, until: Date? = nil) throws -> [String] {
        try search(state, query, app: app, since: since, until: until).notifications.map(\.identifier)
    }

    @Test func wordsAreFoundAsTheStartOfAWordWhateverTheirCaseAndAccents() throws {
        var state = F.state()
        try add(&state, "a", title: "Ann Lee", body: "Dinner at eight?", at: 1)
        try add(&state, "b", title: "Élan Vital", body: "Café tomorrow — naïve plan", at: 2)
        try add(&state, "c", title: "Build", body: "ci failed on main: ann@example.org broke it", at: 3)
        #expect(try found(state, "din") == ["a"])
        #expect(try found(state, "DINNER") == ["a"])
        #expect(try found(state, "inner") == [], "a word's middle is not its start")
        #expect(try found(state, "elan") == ["b"])
        #expect(try found(state, "cafe naive") == ["b"])
        #expect(try found(state, "ann") == ["c", "a"], "newest first; an address's parts are words")
        #expect(try found(state, "ann main") == ["c"], "words from the body and from an address in it")
    }

    @Test func everyWordMustBeFoundButNotInOneField() throws {
        var state = F.state()
        try add(&state, "a", title: "Ann", body: "Dinner at eight?", at: 1)
        try add(&state, "b", title: "Bo", body: "Dinner is late", at: 2)
        #expect(try found(state, "ann dinner") == ["a"])
        #expect(try found(state, "dinner") == ["b", "a"])
        #expect(try found(state, "ann late") == [])
    }

    @Test func anAppIsFoundByTheWordsOfItsNameAndAppNarrowsTheSearch() throws {
        var state = F.state()
        try add(&state, "a", title: "Ann", body: "Lunch?", app: F.app, at: 1)
        try add(&state, "b", title: "Missed call", body: "Lunch?", app: F.otherApp, at: 2)
        #expect(try found(state, "phone") == ["b"])
        #expect(try found(state, "chat lunch") == ["a"])
        #expect(try found(state, "lunch", app: F.app) == ["a"])
        #expect(try found(state, "lunch", app: "org.example.none") == [])
    }

    @Test func aCommunicationIsFoundByItsSenderAndConversation() throws {
        var state = F.state()
        _ = try state.donate(DonateParams(app: F.app, interaction: F.message(conversation: "trip-planning")), caller: F.user, now: F.now)
        _ = try state.updateContent(
            UpdateContentParams(app: F.app, identifier: "n1", interactionIdentifier: "m1", content: NotificationContent(body: "Lunch?")),
            caller: F.user, now: F.now + 1)
        #expect(try found(state, "ann") == ["n1"], "the sender's name")
        #expect(try found(state, "example") == ["n1"], "the sender's address")
        #expect(try found(state, "trip") == ["n1"], "the conversation")
    }

    @Test func sinceAndUntilNarrowToWhenTheyWereReceived() throws {
        var state = F.state()
        for index in 0..<5 { try add(&state, "n\(index)", body: "standup", at: Double(index) * 60) }
        #expect(try found(state, "standup", since: F.now + 60, until: F.now + 180) == ["n3", "n2", "n1"], "both ends included")
        #expect(try found(state, "standup", since: F.now + 240) == ["n4"])
        #expect(try found(state, "standup", since: F.now + 60, until: F.now + 60) == ["n1"])
        let error = ruleError { try search(state, "standup", since: F.now + 60, until: F.now + 59.999) }
        #expect(error?.code == .invalidParams && error?.path == ["until"])
    }

    /// Issue 45, item 6: heraldd keeps times finer than the wire's millisecond; a
    /// `receivedAt` given back as it was answered names its own notification, at either end.
    @Test func aReceivedAtGivenBackAsTheWireShowsItIncludesItsNotification() throws {
        var state = F.state()
        // Received a fraction of a millisecond either side of the times the wire writes.
        try add(&state, "early", body: "standup", at: 10.000_4)
        try add(&state, "late", body: "standup", at: 20.000_6)
        for identifier in ["early", "late"] {
            let received = try #require(try search(state, "standup").notifications.first { $0.identifier == identifier }?.receivedAt)
            let wire = try #require(RFC3339.parse(RFC3339.format(received)))
            #expect(wire != received, "the wire's time is not the stored one")
            #expect(try found(state, "standup", since: wire).contains(identifier), "since \(identifier)")
            #expect(try found(state, "standup", until: wire).contains(identifier), "until \(identifier)")
            #expect(try found(state, "standup", since: wire, until: wire) == [identifier])
        }
    }

    @Test func pagesWalkEveryFoundNotificationOnceNewestFirst() throws {
        var state = F.state()
        for index in 0..<23 { try add(&state, "n\(index)", body: index.isMultiple(of: 2) ? "even word" : "odd word", at: Double(index)) }
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try search(state, "word", limit: 5, cursor: cursor)
            #expect(page.notifications.count <= 5)
            seen += page.notifications.map(\.identifier)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 5)
        #expect(seen == (0..<23).reversed().map { "n\($0)" })
        let bounded = try search(state, "even", maxBytes: 20)
        #expect(bounded.notifications.map(\.identifier) == ["n22", "n20"] && bounded.nextCursor != nil, "the byte budget bounds a page")
    }

    @Test func removedReplacedAndEvictedNotificationsAreNotFound() throws {
        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.maxNotificationsPerUID = 3
        var state = F.state(configuration)
        try add(&state, "a", body: "alpha", at: 1)
        try add(&state, "b", body: "bravo", at: 2)
        try add(&state, "b", body: "charlie", at: 3)
        #expect(try found(state, "bravo") == [], "the replaced content is gone")
        #expect(try found(state, "charlie") == ["b"])
        _ = try state.removeNotifications(RemoveNotificationsParams(app: F.app, identifiers: ["a"]), caller: F.user)
        #expect(try found(state, "alpha") == [])
        for index in 0..<4 { try add(&state, "e\(index)", body: "echo", at: Double(10 + index)) }
        #expect(try found(state, "echo") == ["e3", "e2", "e1"], "the oldest evicted at the limit")
        #expect(try found(state, "charlie") == [])
    }

    @Test func theIndexStaysRightAcrossItsCompaction() throws {
        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.maxNotificationsPerUID = 100
        var state = F.state(configuration)
        // 5,000 through a list of 100: the index drops its gone documents several times.
        for index in 0..<5000 { try add(&state, "n\(index)", body: "word\(index % 7) common", at: Double(index)) }
        #expect(try found(state, "common").count == 50, "a page of the default limit")
        let sevens = try search(state, "word3", limit: 500).notifications.map(\.identifier)
        #expect(sevens == (4900..<5000).reversed().filter { $0 % 7 == 3 }.map { "n\($0)" })
        let list = state.notifications.lists[F.user.uid]!
        #expect(list.search.documentCount < 1200, "gone documents were dropped: \(list.search.documentCount)")
    }

    @Test func aCompactionChangesTheListInPlace() throws {
        var configuration = CoreConfiguration(timeZone: .utc)
        configuration.maxNotificationsPerUID = 100
        var state = F.state(configuration)
        // The list at its limit first, its table grown to its size; then enough more to
        // compact the index at least once.
        for index in 0..<300 { try add(&state, "n\(index)", body: "word\(index % 7) common", at: Double(index)) }
        // Numbers only: a copy of the list kept here would itself make the next change copy.
        let table = try storageIdentity(of: state.notifications.lists[F.user.uid]!.entries)
        let documents = state.notifications.lists[F.user.uid]!.search.documentCount
        for index in 300..<1800 { try add(&state, "n\(index)", body: "word\(index % 7) common", at: Double(index)) }
        let after = state.notifications.lists[F.user.uid]!
        #expect(after.search.documentCount < documents + 1500, "the index compacted")
        // A walk that held a second reference to the table made the compaction copy it.
        #expect(try storageIdentity(of: after.entries) == table, "the entries were renumbered in place")
        let sevens = try search(state, "word3", limit: 500).notifications.map(\.identifier)
        #expect(sevens == (1700..<1800).reversed().filter { $0 % 7 == 3 }.map { "n\($0)" })
    }

    @Test func aSnapshotRestoresAListThatSearchesAlike() throws {
        var state = F.state()
        try add(&state, "a", title: "Ann", body: "Dinner", at: 1)
        try add(&state, "b", title: "Bo", body: "Dinner", at: 2)
        var restored = F.state()
        let restoredAll = restored.restoreNotifications(state.storedNotifications)
        #expect(restoredAll)
        #expect(try found(restored, "dinner") == ["b", "a"])
        #expect(try found(restored, "bo") == ["b"])
    }

    @Test func aPersonSearchesOnlyTheirOwnUnlessAnAdministratorNamesAUid() throws {
        var state = F.state()
        try add(&state, "mine", body: "secret plan", at: 1)
        try add(&state, "theirs", body: "secret plan", caller: F.otherUser, at: 2)
        #expect(try found(state, "secret") == ["mine"])
        let error = ruleError {
            try state.notificationListView.searchNotifications(SearchNotificationsParams(query: "secret", uid: 1001), caller: F.user)
        }
        #expect(error?.code == .permissionDenied && error?.path == ["uid"])
        let admin = try state.notificationListView.searchNotifications(SearchNotificationsParams(query: "secret", uid: 1001), caller: F.admin)
        #expect(admin.result.notifications.map(\.identifier) == ["theirs"])
    }

    @Test func aQueryWithoutWordsOrWithTooManyOrABadLimitIsRefused() throws {
        let state = F.state()
        for (query, limit) in [("  ?!  ", nil), (Array(repeating: "w", count: 17).joined(separator: " "), nil), ("ok", 501), ("ok", -1)] as [(String, Int?)] {
            let error = ruleError { try search(state, query, limit: limit) }
            #expect(error?.code == .invalidParams && error?.path == [limit == nil ? "query" : "limit"], "\(query) \(String(describing: limit))")
        }
        let cursor = ruleError { try search(state, "ok", cursor: "nope") }
        #expect(cursor?.path == ["cursor"])
    }

    @Test func aWordIsCutAtItsLimitAndNonWordsSeparate() {
        #expect(SearchWords.words(in: "Hello, World! 42x") == ["hello", "world", "42x"])
        #expect(SearchWords.words(in: String(repeating: "a", count: 200)) == [String(repeating: "a", count: SearchWords.maxWordBytes)])
        #expect(SearchWords.words(in: "Straße Élan ÅNGSTRÖM 東京") == ["strasse", "elan", "angstrom", "東京"])
        #expect(SearchWords.words(in: "🎉party🎉") == ["party"])
    }
}
