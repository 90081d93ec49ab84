/// Every method Herald serves, in the order `openrpc.json` lists them.
///
/// A new method is a new type in this folder, a line here and its handler in
/// `Sources/HeraldServer/Methods`; the server's method table, the journal and the tests
/// that compare `openrpc.json` (names, params) and the journal catalog with the code read
/// this list.
package enum HeraldMethods {
    package static let all: [any HeraldMethod.Type] = [
        DiscoverMethod.self,
        StatsMethod.self,
        SnapshotMethod.self,
        DonateMethod.self,
        UpdateContentMethod.self,
        RequestFocusMethod.self,
        DeleteInteractionsMethod.self,
        SetFocusMethod.self,
        SetFocusAuthorizationMethod.self,
        SetSummaryMethod.self,
        SetCapabilitiesMethod.self,
        SuggestPeopleMethod.self,
        ListNotificationsMethod.self,
        SearchNotificationsMethod.self,
        RemoveNotificationsMethod.self,
        SnoozeNotificationMethod.self,
        DeliverSummaryMethod.self,
        SubscribeNotificationsMethod.self,
        SetNotificationCategoriesMethod.self,
        GetNotificationCategoriesMethod.self,
        RespondToNotificationMethod.self,
        SubscribeResponsesMethod.self,
        GetAppSettingsMethod.self,
        ListAuthorizationRequestsMethod.self,
        DefineFocusMethod.self,
        DeleteFocusMethod.self,
        GetFocusMethod.self,
        GetSummaryMethod.self,
        RestoreNotificationsMethod.self,
        ListRemovedNotificationsMethod.self,
        SetConversationMethod.self,
        ListConversationsMethod.self,
        GetFocusDigestMethod.self,
        SetCooldownMethod.self,
        GetCooldownMethod.self,
        HoldFocusMethod.self,
        ReleaseFocusHoldMethod.self,
        ReleaseGrantsMethod.self,
    ]

    /// Each method's journal message ids, by wire name.
    package static let journalMessageIDs: [String: JournalMessageIDs] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.name, $0.journalMessageIDs) }
    )
}
