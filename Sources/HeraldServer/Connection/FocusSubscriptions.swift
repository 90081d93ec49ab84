import FoundationEssentials
import HeraldCore
import HeraldProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The connections that asked `request-focus` to `subscribe`, and the authorization and
/// Focus status each was last told, so that each hears `focus-changed` exactly when either
/// changes — Herald's counterpart of INShareFocusStatusIntent. An app is told of every
/// change of its authorization (a denied app: `authorizationStatus: denied`,
/// `focusStatus: null`), not only of the Focus.
///
/// Notifications are bounded like responses: a subscriber whose unread output is past
/// `--max-unread-bytes` when a notification is due is closed, with the reason logged,
/// instead of having notifications buffered for it without end.
final class FocusSubscriptions: Sendable {
    /// What a subscriber of (uid, app) is told: its authorization, and its Focus status
    /// while authorized.
    struct Status: Sendable, Hashable {
        var authorization: AuthorizationStatus
        var focus: FocusStatus?

        /// (uid, app)'s status in `view` at `now`.
        init(_ view: FocusView, uid: UInt32, app: String, now: Date) {
            authorization = view.authorizationStatus(uid: uid, app: app)
            focus = view.focusStatus(uid: uid, app: app, now: now)
        }
    }

    private struct Subscription: Sendable {
        var uid: UInt32
        var app: String
        var lastSent: Status
    }

    private let registry: ConnectionRegistry
    private let subscriptions = NIOLockedValueBox<[ConnectionIdentity: [String: Subscription]]>([:])
    /// The connections that asked `get-focus` to `subscribe`, and the uid each follows.
    private let watchers = NIOLockedValueBox<[ConnectionIdentity: UInt32]>([:])
    private let statistics: ServerStatistics?
    private let logger: Logger

    init(registry: ConnectionRegistry, statistics: ServerStatistics? = nil, logger: Logger = Logger(label: "heraldd")) {
        self.registry = registry
        self.statistics = statistics
        self.logger = logger
    }

    /// Whether `connection` holds a subscription.
    func holds(_ connection: ConnectionIdentity) -> Bool {
        subscriptions.withLockedValue { $0[connection]?.isEmpty == false } || watchers.withLockedValue { $0[connection] != nil }
    }

    /// Makes `connection` hear `active-focus-changed` for each change of `uid`'s Focus in
    /// effect (one uid a connection); returns the uid it watched before, for ``watch(_:restoring:)``.
    func watch(_ connection: ConnectionIdentity, uid: UInt32) -> UInt32? {
        watchers.withLockedValue { $0.updateValue(uid, forKey: connection) }
    }

    /// Puts back what `connection` watched before a ``watch(_:uid:)`` (nil: nothing).
    func watch(_ connection: ConnectionIdentity, restoring before: UInt32?) {
        watchers.withLockedValue { $0[connection] = before }
    }

    /// Tells each watcher of a uid every change of its Focus in effect, in order.
    func tell(_ changes: [FocusChange]) {
        guard !changes.isEmpty else { return }
        let all = watchers.withLockedValue { $0 }
        guard !all.isEmpty else { return }
        for change in changes {
            var line: [UInt8] = []
            Self.activeFocusNotification(change).write(to: &line)
            line.append(UInt8(ascii: "\n"))
            for (connection, uid) in all where uid == change.uid {
                SubscriberLine.send(
                    ByteBuffer(bytes: line), to: connection, registry: registry, statistics: statistics, logger: logger,
                    kind: "active-focus-changed subscriber"
                )
            }
        }
    }

    /// Tells each watcher of `uid` that its Focus `name` is now `definition` (nil: deleted).
    func tellDefined(uid: UInt32, name: String, definition: FocusConfiguration?) {
        let all = watchers.withLockedValue { $0 }
        guard all.values.contains(uid) else { return }
        var line: [UInt8] = []
        Self.focusDefinedNotification(uid: uid, name: name, definition: definition).write(to: &line)
        line.append(UInt8(ascii: "\n"))
        for (connection, watched) in all where watched == uid {
            SubscriberLine.send(
                ByteBuffer(bytes: line), to: connection, registry: registry, statistics: statistics, logger: logger,
                kind: "focus-defined subscriber"
            )
        }
    }

    /// `{"jsonrpc":"2.0","method":"focus-defined","params":{"uid":…,"name":…,"focus":definition|null}}`.
    static func focusDefinedNotification(uid: UInt32, name: String, definition: FocusConfiguration?) -> JSONValue {
        .object([
            "jsonrpc": "2.0",
            "method": .string(FocusDefinedNotification.method),
            "params": .object([
                "uid": .number(JSONNumber(Int(uid))), "name": .string(name),
                "focus": definition.map { (try? JSONValueEncoder().encode($0)) ?? .null } ?? .null,
            ]),
        ])
    }

    /// `{"jsonrpc":"2.0","method":"active-focus-changed","params":{"uid":…,"focus":name|null}}`.
    static func activeFocusNotification(_ change: FocusChange) -> JSONValue {
        .object([
            "jsonrpc": "2.0",
            "method": .string(ActiveFocusChangedNotification.method),
            "params": .object(["uid": .number(JSONNumber(Int(change.uid))), "focus": change.isOn ? .string(change.name) : .null]),
        ])
    }

    /// Subscribes a connection to changes of (uid, app)'s authorization and Focus status,
    /// which are now `current`.
    func subscribe(_ connection: ConnectionIdentity, uid: UInt32, app: String, current: Status) {
        subscriptions.withLockedValue {
            $0[connection, default: [:]][app] = Subscription(uid: uid, app: app, lastSent: current)
        }
    }

    func remove(_ connection: ConnectionIdentity) {
        _ = subscriptions.withLockedValue { $0.removeValue(forKey: connection) }
        _ = watchers.withLockedValue { $0.removeValue(forKey: connection) }
    }

    var count: Int {
        subscriptions.withLockedValue { $0.values.reduce(0) { $0 + $1.count } }
    }

    /// How many (connection, app) pairs are subscribed to `uid`'s Focus.
    func count(uid: UInt32) -> Int {
        subscriptions.withLockedValue { $0.values.reduce(0) { total, apps in total + apps.values.reduce(0) { $0 + ($1.uid == uid ? 1 : 0) } } }
    }

    /// Recomputes every subscriber's status from `view` and notifies those whose status changed.
    func refresh(from view: FocusView, now: Date) {
        let changes: [(ConnectionIdentity, String, Status)] = subscriptions.withLockedValue { all in
            var changes: [(ConnectionIdentity, String, Status)] = []
            for (connection, byApp) in all {
                for (app, subscription) in byApp {
                    let status = Status(view, uid: subscription.uid, app: app, now: now)
                    if status != subscription.lastSent {
                        all[connection]?[app]?.lastSent = status
                        changes.append((connection, app, status))
                    }
                }
            }
            return changes
        }
        for (connection, app, status) in changes {
            var line: [UInt8] = []
            Self.notification(app: app, status: status).write(to: &line)
            line.append(UInt8(ascii: "\n"))
            SubscriberLine.send(
                ByteBuffer(bytes: line), to: connection, registry: registry, statistics: statistics, logger: logger,
                kind: "focus-changed subscriber"
            )
        }
    }

    /// `{"jsonrpc":"2.0","method":"focus-changed","params":{"app":…,"authorizationStatus":…,"focusStatus":…}}`.
    static func notification(app: String, status: Status) -> JSONValue {
        let focusValue: JSONValue = status.focus.map { .object(["isFocused": .bool($0.isFocused)]) } ?? .null
        return .object([
            "jsonrpc": "2.0",
            "method": "focus-changed",
            "params": .object([
                "app": .string(app), "authorizationStatus": .string(status.authorization.rawValue), "focusStatus": focusValue,
            ]),
        ])
    }
}
