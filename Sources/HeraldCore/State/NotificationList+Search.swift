import FoundationEssentials
import HeraldProtocol

extension NotificationList {
    /// What `search-notifications` looks for in one uid's list.
    struct SearchQuery: Sendable {
        /// Folded words (``SearchWords``): a notification has each as the start of one of
        /// its words or of its app's name's.
        var words: [String]
        var app: String?
        var state: NotificationState?
        /// Received at or after, in whole milliseconds as the wire writes times.
        var since: Date?
        /// Received at or before, in whole milliseconds as the wire writes times.
        var until: Date?
        var after: NotificationCursor?
    }

    /// `uid`'s notifications that `query` finds, newest first, at most `count`, each with
    /// its place for the next cursor.
    ///
    /// Each word is a set of documents read from the index's postings. The documents of
    /// the word found least (or, when every word is also in an app's name, all of them)
    /// are then read newest first, and only the `count` newest that match are looked up in
    /// the list. Linear in the index, never in the notifications' text, and at most
    /// `reads`' budget of it: nil when the words would read more.
    func search(
        uid: UInt32, _ query: SearchQuery, count: Int, reads: inout SearchReads
    ) -> [(place: NotificationCursor, notification: HeraldNotification)]? {
        guard count > 0, let list = lists[uid] else { return [] }
        var appFilter: AppNameTable.ID?
        if let app = query.app {
            guard let id = list.apps.id(of: app) else { return [] }
            appFilter = id
        }
        let index = list.search
        // Compared as the wire shows them, so a `receivedAt` given back names its own.
        let since = query.since.map(RFC3339.milliseconds)
        let until = query.until.map(RFC3339.milliseconds)
        var words: [(documents: DocumentSet, apps: [Bool])] = []
        for word in query.words {
            guard reads.take(SearchReads.lookup * list.apps.names.count),
                let documents = index.documents(withWordStartingWith: word, reads: &reads)
            else { return nil }
            words.append((documents, list.apps.matches(withWordStartingWith: word)))
        }
        var newest = NewestDocuments(capacity: count)
        func consider(_ number: NotificationSearchIndex.DocumentNumber) {
            let position = Int(number)
            guard index.keys[position] != nil else { return }
            let place = index.places[position]
            let app = index.apps[position]
            if let appFilter, app != appFilter { return }
            if let after = query.after, !(place < after) { return }
            if let since, RFC3339.milliseconds(place.receivedAt) < since { return }
            if let until, RFC3339.milliseconds(place.receivedAt) > until { return }
            guard newest.wouldKeep(place) else { return }
            for word in words where !word.documents.contains(number) && !word.apps[Int(app)] { return }
            if let state = query.state, list.entries[index.keys[position]!]?.state != state { return }
            newest.offer(number, place)
        }
        // A word that no app's name has: only its documents can match.
        if let driver = words.filter({ !$0.apps.contains(true) }).min(by: { $0.documents.insertions < $1.documents.insertions }) {
            driver.documents.forEachDescending { number in
                consider(number)
                return true
            }
        } else {
            for number in (0..<index.documentCount).reversed() { consider(NotificationSearchIndex.DocumentNumber(number)) }
        }
        return newest.found.compactMap { number, place in
            index.keys[Int(number)].flatMap { list.entries[$0] }.map { (place, $0.notification(app: list.apps.name(of: $0.app))) }
        }
    }
}

extension AppNameTable {
    /// By number, whether an app has a word of its name (`org`, `example`, `chat`)
    /// starting with `prefix`.
    func matches(withWordStartingWith prefix: String) -> [Bool] {
        names.map { name in
            name.utf8.first != 0 && SearchWords.words(in: name).contains { $0.utf8.starts(with: prefix.utf8) }
        }
    }
}

/// The newest documents offered, at most `capacity`, newest first. Offered newest first
/// in the main (documents are numbered as they come), so most offers append or are refused
/// at once.
private struct NewestDocuments {
    let capacity: Int
    private(set) var found: [(number: NotificationSearchIndex.DocumentNumber, place: NotificationCursor)] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether a document at `place` would be kept: there is room, or it is newer than the oldest kept.
    func wouldKeep(_ place: NotificationCursor) -> Bool {
        found.count < capacity || found[found.count - 1].place < place
    }

    mutating func offer(_ number: NotificationSearchIndex.DocumentNumber, _ place: NotificationCursor) {
        guard wouldKeep(place) else { return }
        var low = 0
        var high = found.count
        while low < high {
            let middle = (low + high) / 2
            if found[middle].place > place { low = middle + 1 } else { high = middle }
        }
        found.insert((number, place), at: low)
        if found.count > capacity { found.removeLast() }
    }
}

extension HeraldState {
    /// Every uid's search index built afresh from its list, and what they hold: for the
    /// benchmark, which weighs them by the memory their building takes.
    package func searchIndexesBuiltAfresh() -> (indexes: [any Sendable], documents: Int, words: Int, postings: Int) {
        var indexes: [any Sendable] = []
        var figures = (documents: 0, words: 0, postings: 0)
        for list in notifications.lists.values {
            var index = NotificationSearchIndex()
            for entry in list.entries.values.sorted(by: { $0.stamp < $1.stamp }) {
                _ = index.add(key: NotificationList.Key(app: entry.app, identifier: entry.identifier), place: entry.place, content: entry.content)
            }
            figures.documents += index.liveCount
            figures.words += index.counts.words
            figures.postings += index.counts.postings
            indexes.append(index)
        }
        return (indexes, figures.documents, figures.words, figures.postings)
    }
}

extension HeraldState {
    /// What `uid`'s list weighs as `--max-notification-bytes` counts it: its notifications'
    /// own bytes, its index's kept documents and its gone ones; for the benchmark.
    package func notificationListWeight(uid: UInt32) -> (count: Int, textBytes: Int, indexBytes: Int, goneIndexBytes: Int) {
        guard let list = notifications.lists[uid] else { return (0, 0, 0, 0) }
        return (list.entries.count, list.bytes - list.search.liveBytes, list.search.liveBytes, list.search.goneBytes)
    }
}
