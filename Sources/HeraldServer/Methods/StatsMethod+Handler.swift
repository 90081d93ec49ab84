import HeraldCore
import HeraldProtocol

/// `stats` answers an administrator with the daemon's counters: connections, methods, state
/// and limits; and a person with their own figures only (``PersonFigures``).
extension StatsMethod: ServedMethod {
    static func handle(_ params: NoParams, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<JSONValue> {
        guard context.caller.isAdministrator else {
            return MethodOutcome(result: .object(personObject(uid: context.caller.uid, services)), audit: AuditRecord())
        }
        var stats = statsObject(services.environment, subscriptions: services.subscriptions)
        stats["view"] = "administrator"
        stats["presenters"] = .number(JSONNumber(services.presenters.count))
        return MethodOutcome(result: .object(stats), audit: AuditRecord())
    }

    /// A person's view: the daemon's age, and their own connections, state, Focus and
    /// presenters; nothing of another uid, not even how many there are.
    private static func personObject(uid: UInt32, _ services: MethodServices) -> JSONObject {
        let environment = services.environment
        let now = services.clock.now()
        let figures = services.state.read { $0.personFigures(uid: uid, now: now) }
        var focus = JSONValue.null
        if let active = figures.focus {
            var object: JSONObject = ["name": .string(active.name), "reason": .string(active.reason.rawValue)]
            if let endsAt = active.endsAt { object["endsAt"] = .string(RFC3339.format(endsAt)) }
            focus = .object(object)
        }
        return [
            "view": "person",
            "uid": .number(JSONNumber(Int(uid))),
            "startedAt": .string(RFC3339.format(environment.statistics.startedAt)),
            "uptimeSeconds": .number(JSONNumber((environment.statistics.uptimeSeconds * 1000).rounded() / 1000)),
            "connections": .object(["open": .number(JSONNumber(environment.statistics.openConnections(uid: uid)))]),
            "interactions": .number(JSONNumber(figures.interactions)),
            "apps": .number(JSONNumber(figures.apps)),
            "notifications": .number(JSONNumber(figures.notifications)),
            "deliveredNotifications": .number(JSONNumber(figures.deliveredNotifications)),
            "pendingResponses": .number(JSONNumber(figures.pendingResponses)),
            "focus": focus,
            "focusSubscriptions": .number(JSONNumber(services.subscriptions.count(uid: uid))),
            "presenters": .number(JSONNumber(services.presenters.count(presenting: uid))),
        ]
    }

    /// The daemon's counters and limits, and what other parts of it add.
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
        let listCopies = environment.state.notificationListCopies
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
            "notificationListCopies": .object([
                "afterTheLock": .number(JSONNumber(listCopies.afterTheLock)),
                "underTheLock": .number(JSONNumber(listCopies.underTheLock)),
            ]),
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
