import HeraldProtocol

extension HeraldState {
    /// `set-notification-categories`: replaces the caller's (uid, app)'s set of categories,
    /// as `setNotificationCategories(_:)` does; an empty list clears it.
    ///
    /// A uid's sets count against its own share: apps with a set at most `maxAppsPerUID`,
    /// categories of all its apps at most ``CategoryRules/maxCategoriesPerUID``.
    package mutating func setNotificationCategories(_ p: SetNotificationCategoriesParams, caller: Caller) throws(RuleError)
        -> MethodOutcome<NotificationCategoriesResult>
    {
        try AppName.validate(p.app)
        try CategoryRules.validate(p.categories)
        let share = categories.share(of: caller.uid)
        let held = categories.categories(uid: caller.uid, app: p.app).count
        if !p.categories.isEmpty, !categories.contains(uid: caller.uid, app: p.app) {
            try requireRoomForApp(p.app, holding: share.apps)
        }
        let total = share.categories - held + p.categories.count
        guard total <= CategoryRules.maxCategoriesPerUID else {
            throw RuleError(
                .invalidParams,
                "This uid's apps would hold \(total) notification categories together, past the \(CategoryRules.maxCategoriesPerUID) a uid may; clear another app's with an empty list first.",
                at: ["categories"],
                limit: CategoryRules.maxCategoriesPerUID
            )
        }
        categories.set(p.categories, uid: caller.uid, app: p.app)
        return MethodOutcome(result: NotificationCategoriesResult(app: p.app, categories: p.categories), audit: AuditRecord(app: p.app))
    }

    /// `get-notification-categories`: the caller's (uid, app)'s set, empty when it set none.
    package func getNotificationCategories(_ p: GetNotificationCategoriesParams, caller: Caller) throws(RuleError)
        -> MethodOutcome<NotificationCategoriesResult>
    {
        try AppName.validate(p.app)
        let result = NotificationCategoriesResult(app: p.app, categories: categories.categories(uid: caller.uid, app: p.app))
        return MethodOutcome(result: result, audit: AuditRecord(app: p.app))
    }

    /// `notification` as a presenter gets it: with the actions and options of the category
    /// its `categoryIdentifier` names among `uid`'s categories of its app (none when it names
    /// none or one the app did not set).
    package func presented(_ notification: HeraldNotification, uid: UInt32) -> HeraldNotification {
        categories.presented(notification, uid: uid)
    }

    /// The reason a notification naming `categoryIdentifier` gets when (uid, app) has no
    /// such category: no actions, said once among its delivery reasons. Nil when it names
    /// none or a known one.
    func unknownCategoryReason(_ categoryIdentifier: String?, uid: UInt32, app: String) -> DeliveryReason? {
        guard let categoryIdentifier, categories.category(uid: uid, app: app, identifier: categoryIdentifier) == nil else { return nil }
        return DeliveryReason(
            code: .unknownCategory,
            message: "\(app) set no category \(categoryIdentifier) (set-notification-categories): the notification has no actions."
        )
    }

    /// Every (uid, app)'s set, for a snapshot, sorted by (uid, app).
    package var storedCategories: [(uid: UInt32, app: String, categories: [NotificationCategory])] { categories.sorted }

    /// Restores the sets of a snapshot; false when a set breaks the rules or comes twice.
    package mutating func restoreCategories(_ stored: [(uid: UInt32, app: String, categories: [NotificationCategory])]) -> Bool {
        for set in stored {
            guard AppName.isValid(set.app), !set.categories.isEmpty, !categories.contains(uid: set.uid, app: set.app),
                (try? CategoryRules.validate(set.categories)) != nil
            else { return false }
            categories.set(set.categories, uid: set.uid, app: set.app)
        }
        return true
    }
}
