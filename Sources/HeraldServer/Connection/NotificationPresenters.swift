import Foundation
import HeraldProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// The connections that called `subscribe-notifications`: each presents one uid's
/// notifications, or every uid's (an administrator's without `uid`), and is told
/// `notification-delivered`, `summary-delivered` and `notifications-removed` as they happen,
/// and `authorization-requested` and `authorization-answered` for the person's prompts.
///
/// Lines are bounded like `focus-changed` (``SubscriberLine``): a presenter that stops
/// reading is closed past `--max-unread-bytes`, with the reason logged.
final class NotificationPresenters: Sendable {
    /// Each presenter's uid; nil for every uid.
    private let presenters = NIOLockedValueBox<[ConnectionIdentity: UInt32?]>([:])
    /// How many presenters there are, read without the lock on every `update-content`.
    private let presenterCount = Atomic<Int>(0)
    private let registry: ConnectionRegistry
    private let statistics: ServerStatistics?
    private let logger: Logger
    /// The most bytes of missed notifications sent at a subscription: half of
    /// `--max-unread-bytes`, so that they never close the presenter they are for.
    private let missedBytes: Int

    init(
        registry: ConnectionRegistry, statistics: ServerStatistics? = nil, logger: Logger = Logger(label: "heraldd"),
        maxUnreadBytes: Int = 256 << 10
    ) {
        self.registry = registry
        self.statistics = statistics
        self.logger = logger
        missedBytes = max(1, maxUnreadBytes / 2)
    }

    func subscribe(_ connection: ConnectionIdentity, uid: UInt32?) {
        presenters.withLockedValue {
            $0[connection] = .some(uid)
            presenterCount.store($0.count, ordering: .relaxed)
        }
    }

    func holds(_ connection: ConnectionIdentity) -> Bool {
        presenters.withLockedValue { $0[connection] != nil }
    }

    func remove(_ connection: ConnectionIdentity) {
        presenters.withLockedValue {
            $0.removeValue(forKey: connection)
            presenterCount.store($0.count, ordering: .relaxed)
        }
    }

    var count: Int {
        presenters.withLockedValue { $0.count }
    }

    /// Whether anyone presents: the events are not even made while nobody does.
    var isEmpty: Bool {
        presenterCount.load(ordering: .relaxed) == 0
    }

    /// The notifications a presenter missed (`since`), as `notification-delivered` to it alone,
    /// right after its subscription's result, oldest first: the newest that fit in ``missedBytes``.
    func sendMissed(_ notifications: [HeraldNotification], uid: UInt32, to connection: ConnectionIdentity) {
        guard !notifications.isEmpty, let channel = registry.channel(connection) else { return }
        var lines: [ByteBuffer] = []
        var bytes = 0
        for notification in notifications.reversed() {
            let event = NotificationDelivered(uid: uid, notification: notification)
            let line = SubscriberLine.line(method: NotificationDelivered.method, params: event)
            guard bytes + line.readableBytes <= missedBytes else { continue }
            bytes += line.readableBytes
            lines.append(line)
        }
        let oldestFirst = lines.reversed()
        channel.eventLoop.execute { [self] in
            for line in oldestFirst {
                SubscriberLine.send(line, to: connection, registry: registry, statistics: statistics, logger: logger, kind: "notification presenter")
            }
        }
    }

    func delivered(_ event: NotificationDelivered) {
        send(NotificationDelivered.method, event, uid: event.uid)
    }

    func summaryDelivered(_ summary: NotificationSummary) {
        send(NotificationSummary.method, summary, uid: summary.uid)
    }

    func removed(_ event: NotificationsRemoved) {
        send(NotificationsRemoved.method, event, uid: event.uid)
    }

    /// An app asked for Focus authorization: the presenters of its uid prompt the person.
    func authorizationRequested(_ event: AuthorizationRequested) {
        send(AuthorizationRequested.method, event, uid: event.uid)
    }

    /// A waiting authorization request was decided: the presenters of its uid drop their prompt.
    func authorizationAnswered(_ event: AuthorizationAnswered) {
        send(AuthorizationAnswered.method, event, uid: event.uid)
    }

    /// A Focus ended having silenced something: the presenters of its uid show the digest.
    func focusDigest(_ digest: FocusDigest) {
        send(FocusDigest.method, digest, uid: digest.uid)
    }

    /// Sends `params` as a `method` notification to each presenter of `uid`.
    private func send(_ method: String, _ params: some Encodable, uid: UInt32) {
        send(uid: uid) { (try? JSONValueEncoder().encode(params)).map { SubscriberLine.line(method: method, params: $0) } }
    }

    /// The same for params that write themselves: a notification, a summary.
    private func send(_ method: String, _ params: some JSONDirectEncodable, uid: UInt32) {
        send(uid: uid) { SubscriberLine.line(method: method, params: params) }
    }

    /// Sends the line `makeLine` makes (only when some presenter will get it).
    private func send(uid: UInt32, makeLine: () -> ByteBuffer?) {
        let recipients = presenters.withLockedValue { all in
            all.compactMap { connection, presented in presented == nil || presented == uid ? connection : nil }
        }
        guard !recipients.isEmpty, let line = makeLine() else { return }
        for connection in recipients {
            SubscriberLine.send(line, to: connection, registry: registry, statistics: statistics, logger: logger, kind: "notification presenter")
        }
    }
}
