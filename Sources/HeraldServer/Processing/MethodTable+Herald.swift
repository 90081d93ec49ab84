import Foundation
import HeraldCore
import HeraldProtocol
import NIOConcurrencyHelpers

/// What the method handlers need beyond their params.
package struct MethodEnvironment: Sendable {
    package var state: SharedState
    package var clock: any HeraldClock
    package var statistics: ServerStatistics
    /// The OpenRPC document `rpc.discover` returns.
    package var openRPCDocument: JSONValue
    /// Members that other parts of the daemon (the journal writer, the snapshot writer) add to `stats`.
    package var statsContributions: @Sendable () -> JSONObject
    /// Takes a snapshot now, for the `snapshot` method; the daemon's snapshot writer.
    package var takeSnapshot: @Sendable () throws(RPCError) -> SnapshotResult
    /// The most bytes of UTF-8 in one string of params (`--max-string-bytes`).
    package var maxStringBytes: Int
    /// The largest response (`--max-response-bytes`): a listing's page is bounded by it.
    package var maxResponseBytes = RequestLimits().maxResponseBytes
    /// Journals a summary delivered (uid, count, identifiers; never content).
    package var recordSummary: @Sendable (NotificationSummary) -> Void = { _ in }
    /// Journals a response (uid, app, notification and action identifiers, where it went;
    /// never `userText`).
    package var recordResponse: @Sendable (UInt32, NotificationResponse, ResponseHandoff) -> Void = { _, _, _ in }
    /// Journals a change of a uid's Focus in effect (name, on or off, counts; never a handle).
    package var recordFocusChange: @Sendable (FocusChange) -> Void = { _ in }
    /// Woken when a request makes a Focus change due before the ticker's next round.
    package var tickerAlarm = TickerAlarm()
    /// Requests refused by `maxStringBytes`.
    let stringsRefused = NIOLockedValueBox(0)

    package init(
        state: SharedState,
        clock: any HeraldClock,
        statistics: ServerStatistics,
        openRPCDocument: JSONValue,
        statsContributions: @escaping @Sendable () -> JSONObject = { JSONObject() },
        maxStringBytes: Int = 16_384,
        takeSnapshot: @escaping @Sendable () throws(RPCError) -> SnapshotResult = { () throws(RPCError) in
            throw RPCError(.internalError, reason: "This server keeps no snapshots.")
        }
    ) {
        self.maxStringBytes = maxStringBytes
        self.state = state
        self.clock = clock
        self.statistics = statistics
        self.openRPCDocument = openRPCDocument
        self.statsContributions = statsContributions
        self.takeSnapshot = takeSnapshot
    }
}

extension MethodTable {
    /// Every method Herald serves.
    static func herald(
        _ environment: MethodEnvironment, subscriptions: FocusSubscriptions,
        presenters: NotificationPresenters = NotificationPresenters(registry: ConnectionRegistry()),
        responses: ResponseSubscriptions = ResponseSubscriptions(registry: ConnectionRegistry())
    ) -> MethodTable {
        var table = MethodTable()
        let maxStringBytes = environment.maxStringBytes
        let stringsRefused = environment.stringsRefused
        table.checkParams = { params, context throws(RPCError) in
            // A string's UTF-8 is never longer than the JSON that writes it (an escape only
            // shortens), so a text of at most maxStringBytes bytes needs no walk.
            if let textBytes = context.textByteCount, textBytes <= maxStringBytes { return }
            if let error = RPCError.stringTooLong(in: params, maxBytes: maxStringBytes) {
                stringsRefused.withLockedValue { $0 += 1 }
                throw error
            }
        }
        let state = environment.state
        let clock = environment.clock

        table.register(DiscoverMethod.self) { _, _ in
            MethodOutcome(result: environment.openRPCDocument, audit: AuditRecord())
        }
        table.declareResultSize(environment.openRPCDocument.compactText.utf8.count, for: DiscoverMethod.name)
        table.register(StatsMethod.self) { _, _ in
            MethodOutcome(result: .object(statsObject(environment, subscriptions: subscriptions)), audit: AuditRecord())
        }

        table.register(SnapshotMethod.self) { _, _ in
            MethodOutcome(result: try environment.takeSnapshot(), audit: AuditRecord())
        }

        table.register(DonateMethod.self) { params, context in
            // The rules that need no state run before the lock, and the lock is taken once;
            // a second time only for a retry, whose comparison with the stored interaction
            // is linear in its size (an 88,000-member call record takes milliseconds) and
            // so is made between the two.
            let donation = try HeraldState.prepareDonation(params)
            var retry: DonationRetry?
            while true {
                let step = try state.withLock { [retry] state throws(RuleError) in
                    try state.donate(donation, caller: context.caller, now: clock.now(), retry: retry)
                }
                switch step {
                case .done(let outcome): return outcome
                case .compare(let stored): retry = DonationRetry.compare(donation, with: stored)
                }
            }
        }
        table.register(UpdateContentMethod.self) { params, context in
            let payloadContent = try Self.payloadContent(params)
            var params = params
            if params.identifier == nil { params.identifier = HeraldState.newNotificationIdentifier() }
            let presenting = !presenters.isEmpty
            // The presenters' copy is made, and the notification the list evicted freed,
            // after the lock: a list at --max-notifications evicts one on every call.
            let (outcome, listing) = try state.withLock { state throws(RuleError) in
                try state.updateContentListing(params, payloadContent: payloadContent, caller: context.caller, now: clock.now())
            }
            if presenting, outcome.result.delivery.presentation != .summary {
                var delivered = listing.notification(outcome.result, app: params.app)
                if delivered.content.categoryIdentifier != nil {
                    delivered = state.read { [delivered] in $0.presented(delivered, uid: context.caller.uid) }
                }
                presenters.delivered(NotificationDelivered(uid: context.caller.uid, notification: delivered))
            }
            return outcome
        }
        table.registerNotificationMethods(environment, presenters: presenters)
        table.registerResponseMethods(environment, presenters: presenters, responses: responses)
        table.register(DeleteInteractionsMethod.self) { params, context in
            // A few identifiers are looked up under the lock; a group, or all of an app, is
            // found by a scan of the uid's interactions (and many identifiers looked up) on a
            // copy, outside the lock. The removal then takes the lock a step at a time.
            let deletion =
                DeleteInteractionsMethod.isLookUp(identifierCount: params.identifiers?.count)
                ? try state.read { state in Result { () throws(RuleError) in try state.interactionDeletion(params, caller: context.caller) } }.get()
                : try state.copy().interactionDeletion(params, caller: context.caller)
            let steps = deletion.steps(of: DeleteInteractionsMethod.deletionStep)
            var deleted = 0
            var next = 0
            if !steps.isEmpty {
                state.withLockInSteps { state in
                    let removed = state.delete(steps[next])
                    deleted += removed
                    next += 1
                    return (isDone: next == steps.count, changed: removed > 0)
                }
            }
            return MethodOutcome(result: DeleteInteractionsResult(deleted: deleted), audit: deletion.audit)
        }
        table.register(SuggestPeopleMethod.self) { params, context in
            // A scan of every interaction, seconds for a million: on a copy (copy-on-write,
            // as a snapshot's), so the lock is held only to take it.
            try state.copy().suggestPeople(params, caller: context.caller, now: clock.now())
        }
        table.registerFocusMethods(environment, subscriptions: subscriptions)
        table.registerAuthorizationMethods(environment, subscriptions: subscriptions, presenters: presenters)
        return table
    }

    /// `update-content`'s APNs payload as content (nil without one), mapped outside the
    /// state's lock: reading JSON is the protocol's, not the rules'. The rules check the app
    /// first, so a payload error is reported only for a valid app name.
    private static func payloadContent(_ p: UpdateContentParams) throws -> NotificationContent? {
        guard p.content == nil, let payload = p.payload, !payload.isNull else { return nil }
        do throws(RPCError) {
            return try APNsPayload.content(from: payload)
        } catch {
            try HeraldState.checkAppName(p.app)
            throw error
        }
    }

    private static func statsObject(_ environment: MethodEnvironment, subscriptions: FocusSubscriptions) -> JSONObject {
        let counts = environment.statistics.snapshot()
        let limitCounts = environment.statistics.limitCounts
        var methods = JSONObject()
        for name in counts.methods.keys.sorted() {
            let method = counts.methods[name]!
            methods[name] = .object([
                "requests": .number(JSONNumber(Int(method.requests))),
                "errors": .number(JSONNumber(Int(method.errors))),
            ])
        }
        let (interactions, configuration, fairShares, notifications, notificationsEvicted) = environment.state.read {
            ($0.interactionCount, $0.configuration, $0.fairShares, $0.notificationCount, $0.notificationsDropped.evicted)
        }
        let (pendingResponses, responsesDropped) = environment.state.read { ($0.pendingResponseCount, $0.pendingResponsesDropped) }
        let focusesOn = environment.state.read { $0.focusOnCount }
        var stats: JSONObject = [
            "startedAt": .string(RFC3339.format(environment.statistics.startedAt)),
            "uptimeSeconds": .number(JSONNumber((environment.statistics.uptimeSeconds * 1000).rounded() / 1000)),
            "connections": .object([
                "open": .number(JSONNumber(counts.openConnections)),
                "accepted": .number(JSONNumber(Int(counts.acceptedConnections))),
                "refused": .number(JSONNumber(Int(counts.refusedConnections))),
                "refusedUIDAtLimit": .number(JSONNumber(Int(limitCounts.refusedForUIDLimit))),
                "closedIdle": .number(JSONNumber(Int(limitCounts.closedIdle))),
                "closedUnread": .number(JSONNumber(Int(limitCounts.closedUnread))),
                "busiestUID": limitCounts.busiestUID.map { .number(JSONNumber(Int($0))) } ?? .null,
                "busiestUIDConnections": .number(JSONNumber(limitCounts.busiestUIDConnections)),
            ]),
            "refusedBatches": .number(JSONNumber(Int(limitCounts.refusedBatches))),
            "methods": .object(methods),
            "interactions": .number(JSONNumber(interactions)),
            "focusSubscriptions": .number(JSONNumber(subscriptions.count)),
            "focusesOn": .number(JSONNumber(focusesOn)),
            "notifications": .number(JSONNumber(notifications)),
            "pendingResponses": .number(JSONNumber(pendingResponses)),
            "limits": .object(
                limitsObject(
                    configuration, fairShares, environment, stringsRefused: environment.stringsRefused.withLockedValue { $0 },
                    notificationsEvicted: notificationsEvicted
                )
            ),
        ]
        if case .object(var limits)? = stats["limits"] {
            limits["pendingResponsesPerApp"] = .object([
                "limit": .number(JSONNumber(HeraldState.maxPendingResponsesPerApp)),
                "dropped": .number(JSONNumber(responsesDropped.atAppLimit)),
                "refusedAppsPerUID": .number(JSONNumber(responsesDropped.forAppsPerUID)),
            ])
            stats["limits"] = .object(limits)
        }
        for member in environment.statsContributions() {
            stats[member.key] = member.value
        }
        return stats
    }

    /// Each per-uid limit and string limit with what it did: `stats.limits`.
    private static func limitsObject(
        _ configuration: CoreConfiguration,
        _ counts: FairShareCounts,
        _ environment: MethodEnvironment,
        stringsRefused: Int,
        notificationsEvicted: Int
    ) -> JSONObject {
        func limit(_ value: Int, _ name: String, _ count: Int) -> JSONValue {
            .object(["limit": .number(JSONNumber(value)), name: .number(JSONNumber(count))])
        }
        return [
            "interactions": limit(configuration.maxInteractions, "evicted", counts.evictedAtLimit),
            "interactionsPerUID": limit(configuration.maxInteractionsPerUID, "evicted", counts.evictedAtUIDLimit),
            "appsPerUID": limit(configuration.maxAppsPerUID, "refused", counts.appsRefused),
            "silencedPerUID": limit(configuration.maxSilencedMarksPerUID, "refused", counts.silencedMarksRefused),
            "stringBytes": limit(environment.maxStringBytes, "refused", stringsRefused),
            "notificationsPerUID": limit(configuration.maxNotificationsPerUID, "evicted", notificationsEvicted),
            "notificationBytesPerUID": .object(["limit": .number(JSONNumber(configuration.maxNotificationBytesPerUID))]),
        ]
    }
}
