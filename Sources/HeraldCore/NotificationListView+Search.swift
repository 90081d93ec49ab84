import FoundationEssentials
import HeraldProtocol

extension NotificationListView {
    /// A page holds this many when the request gives no `limit`, and never more than `maxSearchLimit`.
    package static let defaultSearchLimit = 50
    package static let maxSearchLimit = 500
    /// A query of more words than this is refused: each word is one more pass over the index.
    package static let maxSearchWords = 16
    /// The most of the index one search reads (``SearchReads``); a query that would read
    /// more is refused at `/query`, with this as `data.limit`.
    package static let maxSearchReads = NotificationSearchIndex.maxSearchReads

    /// `search-notifications`: the caller's notifications (an administrator's: `uid`'s)
    /// that have every word of `query`, newest first, one page: after `cursor`, at most
    /// `limit`, within `budget`, reading at most `maxReads` of the index (``SearchReads``);
    /// `nextCursor` when more are left. The person's own view,
    /// every app's unless `app` names one, as `list-notifications` is.
    package func searchNotifications(
        _ p: SearchNotificationsParams, caller: Caller, budget: PageBudget<HeraldNotification> = .unbounded,
        maxReads: Int = maxSearchReads
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
        if let since = p.since, let until = p.until, RFC3339.milliseconds(until) < RFC3339.milliseconds(since) {
            throw .invalidParams(
                "until must not be earlier than since: the search is of notifications received from since to until, both included.", at: ["until"])
        }
        let after = try p.cursor.map { text throws(RuleError) in try NotificationCursor.read(text, answeredBy: "search-notifications") }
        // One more than the page holds: when it is found, the page has a next cursor.
        let query = NotificationList.SearchQuery(
            words: Self.narrowest(words), app: p.app, state: p.state, since: p.since, until: p.until, after: after)
        var reads = SearchReads(budget: maxReads)
        guard let matches = notifications.search(uid: uid, query, count: limit + 1, reads: &reads) else {
            throw RuleError(
                .invalidParams,
                "query's words begin more of this list's words than one search reads (\(reads.budget) entries of its index); add letters to its shortest words, or name an app.",
                at: ["query"], limit: reads.budget)
        }
        let found = matches.lazy.map {
            (place: $0.place, item: categories.presented($0.notification, uid: uid))
        }
        let page = budget.page(found, limit: limit)
        var audit = AuditRecord(app: p.app)
        audit.notificationIdentifiers = page.items.map(\.identifier)
        return MethodOutcome(result: ListNotificationsResult(notifications: page.items, nextCursor: page.next?.text), audit: audit)
    }

    /// The words a search needs: each once, and none that starts another (a notification
    /// with a word starting `dinn` has one starting `d`), so that `d di din dinn` reads
    /// the index once.
    static func narrowest(_ words: [String]) -> [String] {
        var kept: [String] = []
        for word in Set(words).sorted(by: { $0.utf8.count > $1.utf8.count }) where !kept.contains(where: { $0.utf8.starts(with: word.utf8) }) {
            kept.append(word)
        }
        return kept
    }
}
