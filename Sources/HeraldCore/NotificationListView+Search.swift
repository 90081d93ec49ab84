import Foundation
import HeraldProtocol

extension NotificationListView {
    /// A page holds this many when the request gives no `limit`, and never more than `maxSearchLimit`.
    package static let defaultSearchLimit = 50
    package static let maxSearchLimit = 500
    /// A query of more words than this is refused: each word is one more pass over the index.
    package static let maxSearchWords = 16

    /// `search-notifications`: the caller's notifications (an administrator's: `uid`'s)
    /// that have every word of `query`, newest first, one page: after `cursor`, at most
    /// `limit`, within `budget`; `nextCursor` when more are left. The person's own view,
    /// every app's unless `app` names one, as `list-notifications` is.
    package func searchNotifications(
        _ p: SearchNotificationsParams, caller: Caller, budget: PageBudget<HeraldNotification> = .unbounded
    ) throws(RuleError) -> MethodOutcome<ListNotificationsResult> {
        let uid = try HeraldState.ownerUID(p.uid, caller: caller) ?? caller.uid
        if let app = p.app { try AppName.validate(app) }
        let words = SearchWords.words(in: p.query)
        guard !words.isEmpty else {
            throw .invalidParams("query needs a word to look for: letters or digits; got \"\(p.query)\".", at: ["query"])
        }
        guard words.count <= Self.maxSearchWords else {
            throw RuleError(
                .invalidParams, "query has \(words.count) words; search for at most \(Self.maxSearchWords).", at: ["query"],
                limit: Self.maxSearchWords)
        }
        let limit = p.limit ?? Self.defaultSearchLimit
        guard (0...Self.maxSearchLimit).contains(limit) else {
            throw RuleError(
                .invalidParams, "limit is how many notifications at most, 0 to \(Self.maxSearchLimit); got \(limit).", at: ["limit"],
                limit: Self.maxSearchLimit)
        }
        if let since = p.since, let until = p.until, until <= since {
            throw .invalidParams("until must be later than since: the search is of notifications received from since until until.", at: ["until"])
        }
        let after = try p.cursor.map { text throws(RuleError) in try NotificationCursor.read(text, answeredBy: "search-notifications") }
        // One more than the page holds: when it is found, the page has a next cursor.
        let query = NotificationList.SearchQuery(
            words: Array(Set(words)), app: p.app, state: p.state, since: p.since, until: p.until, after: after)
        let found = notifications.search(uid: uid, query, count: limit + 1).lazy.map {
            (place: $0.place, item: categories.presented($0.notification, uid: uid))
        }
        let page = budget.page(found, limit: limit)
        var audit = AuditRecord(app: p.app)
        audit.notificationIdentifiers = page.items.map(\.identifier)
        return MethodOutcome(result: ListNotificationsResult(notifications: page.items, nextCursor: page.next?.text), audit: audit)
    }
}
