import FoundationEssentials
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
        /// The uid of the connection's peer, whose share ``Table/heldByOwner`` counts it in.
        let owner: UInt32
        var outbox: PresenterOutbox
    }

    private struct Table {
        var presenters: [ConnectionIdentity: Presenter] = [:]
        /// Bytes the outboxes of each peer uid's presenters hold together.
        var heldByOwner: [UInt32: Int] = [:]
        /// Missed notifications waiting for their connection's event loop, one set a
        /// connection: a later subscription's replaces an earlier one's not yet sent.
        var missed: [ConnectionIdentity: (uid: UInt32, notifications: [HeraldNotification])] = [:]

        /// Runs `body` on a presenter's outbox, keeping its owner's bytes up to date.
        mutating func change<Value>(_ connection: ConnectionIdentity, _ body: (inout PresenterOutbox, _ room: Int) -> Value, limit: Int) -> Value? {
            guard var presenter = presenters.removeValue(forKey: connection) else { return nil }
            defer { presenters[connection] = presenter }
            let before = presenter.outbox.heldBytes
            let room = limit - heldByOwner[presenter.owner, default: 0]
            let value = body(&presenter.outbox, room)
            heldByOwner[presenter.owner, default: 0] += presenter.outbox.heldBytes - before
            return value
        }
    }

    private let presenters = NIOLockedValueBox(Table())
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
    /// The most bytes one uid's presenters hold together (issue 49, finding 5): four times
    /// `--max-unread-bytes`; past it, events for them are skipped and counted.
    let maxBytesPerUID: Int

    init(
        registry: ConnectionRegistry, statistics: ServerStatistics? = nil, logger: Logger = Logger(label: "heraldd"),
        maxUnreadBytes: Int = 256 << 10
    ) {
        self.registry = registry
        self.statistics = statistics
        self.logger = logger
        self.maxUnreadBytes = max(2, maxUnreadBytes)
        missedBytes = max(1, maxUnreadBytes / 2)
        maxBytesPerUID = 4 * self.maxUnreadBytes
    }

    /// Makes `connection`, of a peer of uid `owner`, a presenter of `uid` (every uid's when nil).
    func subscribe(_ connection: ConnectionIdentity, uid: UInt32?, owner: UInt32) {
        presenters.withLockedValue { table in
            let outbox = table.presenters[connection]?.outbox ?? PresenterOutbox(window: maxUnreadBytes / 2, bound: maxUnreadBytes)
            table.presenters[connection] = Presenter(uid: uid, owner: table.presenters[connection]?.owner ?? owner, outbox: outbox)
            presenterCount.store(table.presenters.count, ordering: .relaxed)
        }
    }

    func holds(_ connection: ConnectionIdentity) -> Bool {
        presenters.withLockedValue { $0.presenters[connection] != nil }
    }

    /// Forgets a presenter; returns the bytes its outbox held, freed now.
    @discardableResult
    func remove(_ connection: ConnectionIdentity) -> Int {
        presenters.withLockedValue { table in
            table.missed[connection] = nil
            guard let presenter = table.presenters.removeValue(forKey: connection) else { return 0 }
            presenterCount.store(table.presenters.count, ordering: .relaxed)
            let held = presenter.outbox.heldBytes
            table.heldByOwner[presenter.owner, default: 0] -= held
            if table.heldByOwner[presenter.owner] == 0 { table.heldByOwner[presenter.owner] = nil }
            return held
        }
    }

    var count: Int {
        presenters.withLockedValue { $0.presenters.count }
    }

    /// How many presenters present `uid`'s notifications alone (an administrator's of every
    /// uid is not counted: it is not the person's).
    func count(presenting uid: UInt32) -> Int {
        presenters.withLockedValue { $0.presenters.values.reduce(0) { $0 + ($1.uid == uid ? 1 : 0) } }
    }

    /// Whether anyone presents: the events are not even made while nobody does.
    var isEmpty: Bool {
        presenterCount.load(ordering: .relaxed) == 0
    }

    /// The notifications a presenter missed (`since`), as `notification-delivered` to it alone,
    /// right after its subscription's result, oldest first: the newest that fit in ``missedBytes``.
    ///
    /// Their lines are made on the connection's event loop, in the task that offers them,
    /// and not at all while the presenter is behind; a connection waits with one set at most,
    /// the latest subscription's. A batch of a thousand subscriptions on a connection that
    /// does not read made a thousand sets of lines at once (issue 49, finding 5: 135 MB).
    func sendMissed(_ notifications: [HeraldNotification], uid: UInt32, to connection: ConnectionIdentity) {
        guard !notifications.isEmpty, let channel = registry.channel(connection) else { return }
        let isScheduled = presenters.withLockedValue { table in
            defer { table.missed[connection] = (uid, notifications) }
            return table.missed[connection] != nil
        }
        guard !isScheduled else { return }
        // After the subscription's result, which the processor writes once this returns.
        channel.eventLoop.execute { [self] in
            let (isBehind, missed) = presenters.withLockedValue { table in
                (table.presenters[connection]?.outbox.isBehind, table.missed.removeValue(forKey: connection))
            }
            guard let missed else { return }
            let burst = newBurst()
            guard isBehind == false else {
                // Gone, or skipping: counted as skipped, made into nothing.
                if isBehind == true { skip(missed.notifications.map(Self.isAlert), burst: burst, of: connection) }
                return
            }
            var lines: [(line: ByteBuffer, alert: Bool)] = []
            var bytes = 0
            for notification in missed.notifications.reversed() {
                let event = NotificationDelivered(uid: missed.uid, notification: notification)
                let line = SubscriberLine.line(method: NotificationDelivered.method, params: event)
                // The newest that fit: making them stops at the first that does not.
                guard bytes + line.readableBytes <= missedBytes else { break }
                bytes += line.readableBytes
                lines.append((line, Self.isAlert(notification)))
            }
            for (line, alert) in lines.reversed() { offer(line, burst: burst, alert: alert, to: [connection]) }
        }
    }

    /// Counts events of `burst` (whether each is an alert) as skipped for a presenter that
    /// is behind, or closes it when it stopped reading.
    private func skip(_ events: [Bool], burst: UInt64, of connection: ConnectionIdentity) {
        let empty = ByteBuffer()
        var closes = false
        presenters.withLockedValue { table in
            for alert in events where !closes && table.presenters[connection]?.outbox.isBehind == true {
                closes = table.change(connection, { $0.offer(empty, burst: burst, room: $1, alert: alert) }, limit: maxBytesPerUID) == .close
            }
        }
        if closes { closeUnread(connection) }
    }

    func delivered(_ event: NotificationDelivered, except shownBy: ConnectionIdentity? = nil) {
        send(NotificationDelivered.method, event, uid: event.uid, burst: newBurst(), alert: Self.isAlert(event.notification), except: shownBy)
    }

    /// Whether `connection` presents its own uid `uid`'s notifications alone: the person's
    /// gateway, the one connection that may hold standing grants.
    func presentsOwn(_ connection: ConnectionIdentity, uid: UInt32) -> Bool {
        presenters.withLockedValue { table in
            guard let presenter = table.presenters[connection] else { return false }
            return presenter.uid == uid && presenter.owner == uid
        }
    }

    /// Tells the gateway on `connection` that its standing grants are revoked.
    func grantsRevoked(_ event: GrantsRevoked, to connection: ConnectionIdentity) {
        guard let line = (try? JSONValueEncoder().encode(event)).map({ SubscriberLine.line(method: GrantsRevoked.method, params: $0) }) else { return }
        offer(line, burst: newBurst(), to: [connection])
    }

    /// Whether a delivered notification is an alert: what a skipped one's count tells the
    /// presenter apart from silenced and quiet ones (``EventsSkipped/alerts``).
    private static func isAlert(_ notification: HeraldNotification) -> Bool {
        notification.delivery.presentation == .alert
    }

    /// Notifications delivered by one change (snoozes ending together, an undo), as one
    /// burst, or as part of `burst`.
    func delivered(_ events: [NotificationDelivered], burst: UInt64? = nil) {
        guard !events.isEmpty, !isEmpty else { return }
        let burst = burst ?? newBurst()
        for event in events { send(NotificationDelivered.method, event, uid: event.uid, burst: burst, alert: Self.isAlert(event.notification)) }
    }

    /// A summary, on its own or as part of `burst` (every uid's summaries due at once).
    func summaryDelivered(_ summary: NotificationSummary, burst: UInt64? = nil) {
        send(NotificationSummary.method, summary, uid: summary.uid, burst: burst ?? newBurst(), alert: summary.presentation == .alert)
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

    /// The same for params that write themselves: a notification, a summary (`alert` when
    /// delivered as one).
    private func send(_ method: String, _ params: some JSONDirectEncodable, uid: UInt32, burst: UInt64, alert: Bool, except: ConnectionIdentity? = nil) {
        send(uid: uid, burst: burst, alert: alert, except: except) { SubscriberLine.line(method: method, params: params) }
    }

    /// Sends the line `makeLine` makes (only when some presenter will get it), to every
    /// presenter of `uid` but `except` (the gateway that showed it under a standing grant).
    private func send(uid: UInt32, burst: UInt64, alert: Bool = false, except: ConnectionIdentity? = nil, makeLine: () -> ByteBuffer?) {
        let recipients = presenters.withLockedValue { table in
            table.presenters.compactMap { connection, presenter in
                (presenter.uid == nil || presenter.uid == uid) && connection != except ? connection : nil
            }
        }
        guard !recipients.isEmpty, let line = makeLine() else { return }
        offer(line, burst: burst, alert: alert, to: recipients)
    }

    /// Offers `line` to each of `recipients`' outboxes, and does what each says.
    private func offer(_ line: ByteBuffer, burst: UInt64, alert: Bool = false, to recipients: [ConnectionIdentity]) {
        let actions = presenters.withLockedValue { table in
            recipients.compactMap { connection -> (ConnectionIdentity, PresenterOutbox.OfferAction)? in
                table.change(connection, { $0.offer(line, burst: burst, room: $1, alert: alert) }, limit: maxBytesPerUID).map { (connection, $0) }
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
        let next = presenters.withLockedValue { table -> (lines: [ByteBuffer], skipped: ByteBuffer?)? in
            let limit = maxBytesPerUID
            return table.change(connection, { outbox, _ in
                let (lines, skipped, alerts) = outbox.wrote(bytes)
                guard let skipped else { return (lines, nil) }
                let told = (try? JSONValueEncoder().encode(EventsSkipped(skipped: skipped, alerts: alerts))) ?? .object(JSONObject())
                let line = SubscriberLine.line(method: EventsSkipped.method, params: told)
                outbox.sent(line.readableBytes)
                return (lines, line)
            }, limit: limit)
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
            reason: "closing a notification presenter that does not read: it fell behind past --max-unread-bytes and has read nothing for 2 s")
    }
}
