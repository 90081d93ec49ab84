import FoundationEssentials
import HeraldProtocol

extension NotificationList {
    /// Every notification's place in its uid's table, in the order that restores the list
    /// as it is: uid after uid, ascending; each uid's delivered ones in the order they were
    /// delivered (the order `--max-notifications` evicts in), then its scheduled and snoozed
    /// ones in the order they came. A snapshot visits the entries where they are through it,
    /// rather than copying each into a notification first (docs/performance.md, "Durability").
    ///
    /// Good only for the list that made it, unchanged: it holds that list's uid lists, so a
    /// snapshot's copy of the state keeps it valid while the state goes on changing.
    struct StoredOrder: Sendable {
        /// Each uid with a list, ascending, its list, and where its entries begin in `places`.
        fileprivate var runs: [(uid: UInt32, list: UIDList, start: Int)] = []
        fileprivate var places: [[Key: Entry].Index] = []

        var count: Int { places.count }
    }

    /// The order of ``StoredOrder``: sorts a stamp and a table index for each entry, never
    /// the entries.
    func storedOrder() -> StoredOrder {
        var order = StoredOrder()
        order.places.reserveCapacity(count)
        var sorted: [(scheduled: Bool, stamp: UInt64, place: [Key: Entry].Index)] = []
        for uid in lists.keys.sorted() {
            let list = lists[uid]!
            order.runs.append((uid, list, order.places.count))
            sorted.removeAll(keepingCapacity: true)
            var place = list.entries.startIndex
            while place != list.entries.endIndex {
                let entry = list.entries.values[place]
                if let delivered = entry.deliveredStamp {
                    sorted.append((false, delivered, place))
                } else {
                    sorted.append((true, entry.stamp, place))
                }
                list.entries.formIndex(after: &place)
            }
            sorted.sort { ($0.scheduled ? 1 : 0, $0.stamp) < ($1.scheduled ? 1 : 0, $1.stamp) }
            order.places.append(contentsOf: sorted.lazy.map(\.place))
        }
        return order
    }

    /// The entries at `positions` of `order`, each with its uid and its app's name.
    func forEach(
        in order: StoredOrder, at positions: Range<Int>, _ body: (_ uid: UInt32, _ app: String, _ entry: Entry) throws -> Void
    ) rethrows {
        guard !positions.isEmpty else { return }
        // The last run that begins at or before the first position (one a uid: few beside the
        // entries).
        var run = order.runs.lastIndex { $0.start <= positions.lowerBound }!
        var position = positions.lowerBound
        while position < positions.upperBound {
            let (uid, list, _) = order.runs[run]
            let end = Swift.min(run + 1 < order.runs.count ? order.runs[run + 1].start : order.places.count, positions.upperBound)
            while position < end {
                let entry = list.entries.values[order.places[position]]
                try body(uid, list.apps.name(of: entry.app), entry)
                position += 1
            }
            run += 1
        }
    }

    /// Every notification with its uid, in the order of ``StoredOrder``.
    func forEachInOrder(_ body: (UInt32, HeraldNotification) throws -> Void) rethrows {
        let order = storedOrder()
        try forEach(in: order, at: 0..<order.count) { uid, app, entry in try body(uid, entry.notification(app: app)) }
    }
}
