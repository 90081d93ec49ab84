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
/// Each presenter's events go through its ``PresenterOutbox``: paced to what it reads,
/// at most `--max-unread-bytes` waiting, a burst past that coalesced into one
/// `events-skipped`; only a presenter that stops reading is closed, with the reason logged.
final class NotificationPresenters: Sendable {
    private struct Presenter {
        /// The uid presented; nil for every uid.
        let uid: UInt32?
        var outbox: PresenterOutbox
    }

    private let presenters = NIOLockedValueBox<[ConnectionIdentity: Presenter]>([:])
    /// How many presenters there are, read without the lock on every `update-content`.
    private let presenterCount = Atomic<Int>(0)
    /// The last burst's number: the events one change makes share one.
    private let bursts = Atomic<UInt64>(0)
    private let registry: ConnectionRegistry
    private let statistics: ServerStatistics?
    private let logger: Logger
    /// The most bytes of missed notifications sent at a subscription: half of
    /// `--max-unread-bytes`, so that they never close the presenter they are for.
    private let missedBytes: Int
    private let maxUnreadBytes: Int

    init(
        registry: ConnectionRegistry, statistics: ServerStatistics? = nil, logger: Logger = Logger(label: "heraldd"),
        maxUnreadBytes: Int = 256 << 10
    ) {
        self.registry = registry
        self.statistics = statistics
        self.logger = logger
        self.maxUnreadBytes = max(2, maxUnreadBytes)
        missedBytes = max(1, maxUnreadBytes / 2)
    }

    func subscribe(_ connection: ConnectionIdentity, uid: UInt32?) {
        presenters.withLockedValue {
            if let known = $0[connection] {
                $0[connection] = Presenter(uid: uid, outbox: known.outbox)
            } else {
                $0[connection] = Presenter(uid: uid, outbox: PresenterOutbox(window: maxUnreadBytes / 2, bound: maxUnreadBytes))
            }
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

    /// A presenter's outbox as it is, for tests: events waiting, bytes on their way, skipped.
    func outbox(of connection: ConnectionIdentity) -> PresenterOutbox? {
        presenters.withLockedValue { $0[connection]?.outbox }
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
        let burst = newBurst()
        // After the subscription's result, which the processor writes once this returns.
        channel.eventLoop.execute { [self] in
            for line in lines.reversed() { offer(line, burst: burst, to: [connection]) }
        }
    }

    func delivered(_ event: NotificationDelivered) {
        send(NotificationDelivered.method, event, uid: event.uid, burst: newBurst())
    }

    /// Notifications delivered by one change (snoozes ending together, an undo), as one
    /// burst, or as part of `burst`.
    func delivered(_ events: [NotificationDelivered], burst: UInt64? = nil) {
        guard !events.isEmpty, !isEmpty else { return }
        let burst = burst ?? newBurst()
        for event in events { send(NotificationDelivered.method, event, uid: event.uid, burst: burst) }
    }

    /// A summary, on its own or as part of `burst` (every uid's summaries due at once).
    func summaryDelivered(_ summary: NotificationSummary, burst: UInt64? = nil) {
        send(NotificationSummary.method, summary, uid: summary.uid, burst: burst ?? newBurst())
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

    /// A number for the events of one change, sent in several calls.
    func newBurst() -> UInt64 {
        bursts.add(1, ordering: .relaxed).newValue
    }

    /// Sends `params` as a `method` notification to each presenter of `uid`.
    private func send(_ method: String, _ params: some Encodable, uid: UInt32) {
        let burst = newBurst()
        send(uid: uid, burst: burst) { (try? JSONValueEncoder().encode(params)).map { SubscriberLine.line(method: method, params: $0) } }
    }

    /// The same for params that write themselves: a notification, a summary.
    private func send(_ method: String, _ params: some JSONDirectEncodable, uid: UInt32, burst: UInt64) {
        send(uid: uid, burst: burst) { SubscriberLine.line(method: method, params: params) }
    }

    /// Sends the line `makeLine` makes (only when some presenter will get it).
    private func send(uid: UInt32, burst: UInt64, makeLine: () -> ByteBuffer?) {
        let recipients = presenters.withLockedValue { all in
            all.compactMap { connection, presenter in presenter.uid == nil || presenter.uid == uid ? connection : nil }
        }
        guard !recipients.isEmpty, let line = makeLine() else { return }
        offer(line, burst: burst, to: recipients)
    }

    /// Offers `line` to each of `recipients`' outboxes, and does what each says.
    private func offer(_ line: ByteBuffer, burst: UInt64, to recipients: [ConnectionIdentity]) {
        let actions = presenters.withLockedValue { all in
            recipients.compactMap { connection -> (ConnectionIdentity, PresenterOutbox.OfferAction)? in
                guard all[connection] != nil else { return nil }
                return (connection, all[connection]!.outbox.offer(line, burst: burst))
            }
        }
        for (connection, action) in actions {
            switch action {
            case .write: write(line, to: connection)
            case .wait, .skip: break
            case .close: closeUnread(connection)
            }
        }
    }

    /// Writes `line` to a presenter; once it reached the socket, what waited goes next.
    private func write(_ line: ByteBuffer, to connection: ConnectionIdentity) {
        guard let channel = registry.channel(connection), channel.isActive else {
            remove(connection)
            return
        }
        let bytes = line.readableBytes
        let written = channel.eventLoop.makePromise(of: Void.self)
        // A task of its own, not a call from the write: a presenter that reads at once
        // would otherwise nest one write in the last for every line that waited.
        written.futureResult.whenSuccess { [self] in
            channel.eventLoop.execute { self.wrote(bytes, to: connection) }
        }
        channel.writeAndFlush(line, promise: written)
    }

    private func wrote(_ bytes: Int, to connection: ConnectionIdentity) {
        let next = presenters.withLockedValue { all -> (lines: [ByteBuffer], skipped: ByteBuffer?)? in
            guard all[connection] != nil else { return nil }
            let (lines, skipped) = all[connection]!.outbox.wrote(bytes)
            guard let skipped else { return (lines, nil) }
            let line = SubscriberLine.line(method: EventsSkipped.method, params: JSONValue.object(["skipped": .number(JSONNumber(skipped))]))
            all[connection]!.outbox.sent(line.readableBytes)
            return (lines, line)
        }
        guard let next else { return }
        for line in next.lines { write(line, to: connection) }
        if let skipped = next.skipped { write(skipped, to: connection) }
    }

    /// Closes a presenter that stopped reading, with the reason logged.
    private func closeUnread(_ connection: ConnectionIdentity) {
        remove(connection)
        guard let channel = registry.channel(connection) else { return }
        SubscriberLine.closeUnread(
            channel, connection: connection, statistics: statistics, logger: logger,
            reason: "closing a notification presenter that does not read: it read nothing since a burst passed --max-unread-bytes")
    }
}
