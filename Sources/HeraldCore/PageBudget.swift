/// What one page of a listing may hold: items while their sizes, as `size` measures them,
/// add up to at most `maxBytes` — and always one, so that every page moves on. The server
/// measures each item as it would write it, so a response is bounded before it is built
/// (`--max-response-bytes`); the rules see only the numbers.
package struct PageBudget<Item>: Sendable {
    package var maxBytes: Int
    package var size: @Sendable (Item) -> Int

    package init(maxBytes: Int, size: @escaping @Sendable (Item) -> Int) {
        self.maxBytes = maxBytes
        self.size = size
    }

    /// Takes items from `items` while they fit (and at most `limit`), each with its place;
    /// the place of the last one taken when some are left after it.
    func page<Place>(_ items: some Sequence<(place: Place, item: Item)>, limit: Int = .max) -> (items: [Item], next: Place?) {
        var taken: [Item] = []
        var used = 0
        var last: Place?
        for (place, item) in items {
            guard taken.count < limit else { return (taken, last) }
            let bytes = size(item)
            if !taken.isEmpty, used + bytes > maxBytes { return (taken, last) }
            taken.append(item)
            used += bytes
            last = place
        }
        return (taken, nil)
    }
}

extension PageBudget {
    /// No bound: every item on one page (for callers that bound nothing, such as tests).
    static var unbounded: PageBudget { PageBudget(maxBytes: .max, size: { _ in 0 }) }
}
