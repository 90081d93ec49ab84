import HeraldProtocol

/// Every (uid, app)'s set of notification categories, as `set-notification-categories`
/// left it; looked up by identifier each time a notification is presented or answered.
struct NotificationCategories: Sendable {
    struct Key: Hashable, Sendable {
        var uid: UInt32
        var app: String
    }

    /// One (uid, app)'s set, in the order it was set, with each category's place.
    struct AppSet: Sendable {
        var categories: [NotificationCategory]
        var places: [String: Int]

        init(_ categories: [NotificationCategory]) {
            self.categories = categories
            self.places = Dictionary(categories.enumerated().map { ($0.element.identifier, $0.offset) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private var sets: [Key: AppSet] = [:]
    /// Each uid's apps with a set, and categories of all its apps; derived, so not encoded.
    private var shares: [UInt32: (apps: Int, categories: Int)] = [:]

    init() {}

    func categories(uid: UInt32, app: String) -> [NotificationCategory] {
        sets[Key(uid: uid, app: app)]?.categories ?? []
    }

    func category(uid: UInt32, app: String, identifier: String) -> NotificationCategory? {
        guard let set = sets[Key(uid: uid, app: app)], let place = set.places[identifier] else { return nil }
        return set.categories[place]
    }

    /// `notification` as a presenter gets it: with the actions and options of the category
    /// its `categoryIdentifier` names among `uid`'s categories of its app (none when it
    /// names none or one the app did not set).
    func presented(_ notification: HeraldNotification, uid: UInt32) -> HeraldNotification {
        guard let identifier = notification.content.categoryIdentifier,
            let category = category(uid: uid, app: notification.app, identifier: identifier)
        else { return notification }
        var presented = notification
        presented.actions = category.actions
        presented.categoryOptions = category.options.flatMap { $0.isEmpty ? nil : $0 }
        return presented
    }

    func contains(uid: UInt32, app: String) -> Bool {
        sets[Key(uid: uid, app: app)] != nil
    }

    /// How many apps of `uid` have a set, and how many categories all of them hold.
    func share(of uid: UInt32) -> (apps: Int, categories: Int) {
        shares[uid] ?? (0, 0)
    }

    /// Replaces (uid, app)'s set; an empty one removes it.
    mutating func set(_ categories: [NotificationCategory], uid: UInt32, app: String) {
        let key = Key(uid: uid, app: app)
        var share = shares[uid] ?? (0, 0)
        if let previous = sets.removeValue(forKey: key) {
            share.apps -= 1
            share.categories -= previous.categories.count
        }
        if !categories.isEmpty {
            sets[key] = AppSet(categories)
            share.apps += 1
            share.categories += categories.count
        }
        shares[uid] = share.apps == 0 ? nil : share
    }

    /// Every set, sorted by (uid, app), for a snapshot: equal sets are written equally.
    var sorted: [(uid: UInt32, app: String, categories: [NotificationCategory])] {
        sets.map { (uid: $0.key.uid, app: $0.key.app, categories: $0.value.categories) }.sorted { ($0.uid, $0.app) < ($1.uid, $1.app) }
    }
}
