extension HeraldClient {
    /// A subscription: what the subscribing call answered, and what heraldd sends for it
    /// from then on, across reconnections (the call is repeated on each new connection).
    public struct Subscription<Current: Sendable, Change: Sendable>: Sendable {
        /// The subscribing call's result: the state when the subscription began.
        public var current: Current
        /// Each change as it comes; finishes as ``HeraldClient/events()`` does.
        public var changes: AsyncStream<Change>
    }

    /// The app's Focus status and each change of it (`request-focus` with `subscribe`,
    /// `focus-changed`): what the seeds' `INFocusStatusCenter` gives an app.
    public func focusStatusChanges(
        app: AppName, requestAuthorization: Bool? = nil
    ) async throws(HeraldError) -> Subscription<RequestFocusResult, FocusChangedParams> {
        try await subscription(
            { () async throws(HeraldError) in try await self.requestFocus(app: app, requestAuthorization: requestAuthorization, subscribe: true) },
            picking: { event in
                if case .focusChanged(let change) = event, change.app == app { return change }
                return nil
            }
        )
    }

    /// The person's Focuses and each change of the Focus in effect (`get-focus` with
    /// `subscribe`, `active-focus-changed`).
    public func activeFocusChanges(uid: Uid? = nil) async throws(HeraldError) -> Subscription<FocusReadBack, ActiveFocusChangedParams> {
        try await subscription(
            { () async throws(HeraldError) in try await self.getFocus(uid: uid, subscribe: true) },
            picking: { event in
                if case .activeFocusChanged(let change) = event { return change }
                return nil
            }
        )
    }

    /// The person's responses to the app's notifications: those waiting first, then each as it
    /// is made (`subscribe-responses`, `notification-response`); with `observe`, a watcher's
    /// view that leaves the waiting ones to the app.
    public func responses(
        app: AppName, observe: Bool? = nil
    ) async throws(HeraldError) -> Subscription<SubscribeResponsesResult, NotificationResponseParams> {
        try await subscription(
            { () async throws(HeraldError) in try await self.subscribeResponses(app: app, observe: observe) },
            picking: { event in
                if case .notificationResponse(let response) = event, response.app == app { return response }
                return nil
            }
        )
    }

    /// A presenter's events (`subscribe-notifications`): notifications delivered, summaries,
    /// removals, authorization requests and answers, Focus digests, skipped events.
    public func presenterEvents(
        uid: Uid? = nil, since: DateTime? = nil
    ) async throws(HeraldError) -> Subscription<SubscribeNotificationsResult, HeraldEvent> {
        try await subscription(
            { () async throws(HeraldError) in try await self.subscribeNotifications(uid: uid, since: since) },
            picking: { event in
                switch event {
                case .focusChanged, .activeFocusChanged, .notificationResponse, .reconnected: nil
                default: event
                }
            }
        )
    }

    /// Opens the event stream before the subscribing call, so that nothing sent after its
    /// answer is missed, and keeps the events `picking` takes.
    private func subscription<Current: Sendable, Change: Sendable>(
        _ subscribe: @Sendable () async throws(HeraldError) -> Current,
        picking: @escaping @Sendable (HeraldEvent) -> Change?
    ) async throws(HeraldError) -> Subscription<Current, Change> {
        let events = self.events()
        let current = try await subscribe()
        let (changes, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .bufferingNewest(configuration.eventBuffer))
        let forwarding = Task {
            for await event in events {
                if let change = picking(event) { continuation.yield(change) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return Subscription(current: current, changes: changes)
    }
}
