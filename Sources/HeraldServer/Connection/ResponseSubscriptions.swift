import HeraldProtocol
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The connections that called `subscribe-responses`, each for apps of its own uid, told
/// `notification-response` as a person answers one of their notifications.
///
/// Who listens to a (uid, app) is asked under the state's lock by `respond-to-notification`,
/// and a connection subscribes under the same lock as it takes the waiting responses, so a
/// response is either sent or kept, never both or neither; one sent that no connection
/// took after all (each closed before the write) is kept then
/// (``deliver(_:to:undelivered:)``). Lines are bounded like `focus-changed`
/// (``SubscriberLine``): an app that stops reading is closed past `--max-unread-bytes`.
final class ResponseSubscriptions: Sendable {
    private struct Listener: Hashable, Sendable {
        var uid: UInt32
        var app: String
        /// Watches without taking (`observe`): told each response, never handed one.
        var observes = false
    }

    /// Each connection's (uid, app)s.
    private let connections = NIOLockedValueBox<[ConnectionIdentity: Set<Listener>]>([:])
    private let registry: ConnectionRegistry
    private let statistics: ServerStatistics?
    private let logger: Logger

    init(registry: ConnectionRegistry, statistics: ServerStatistics? = nil, logger: Logger = Logger(label: "heraldd")) {
        self.registry = registry
        self.statistics = statistics
        self.logger = logger
    }

    func subscribe(_ connection: ConnectionIdentity, uid: UInt32, app: String, observes: Bool = false) {
        connections.withLockedValue { _ = $0[connection, default: []].insert(Listener(uid: uid, app: app, observes: observes)) }
    }

    func holds(_ connection: ConnectionIdentity) -> Bool {
        connections.withLockedValue { $0[connection] != nil }
    }

    func remove(_ connection: ConnectionIdentity) {
        _ = connections.withLockedValue { $0.removeValue(forKey: connection) }
    }

    /// How many (connection, app) subscriptions there are.
    var count: Int {
        connections.withLockedValue { $0.values.reduce(0) { $0 + $1.count } }
    }

    /// The connections of (uid, app) subscribed to take its responses; asked under the
    /// state's lock.
    func listeners(uid: UInt32, app: String) -> [ConnectionIdentity] {
        let listener = Listener(uid: uid, app: app)
        return connections.withLockedValue { all in all.compactMap { $0.value.contains(listener) ? $0.key : nil } }
    }

    /// Tells the connections watching (uid, app) without taking (`observe`) of `response`,
    /// once each: one that also takes them hears it as a taker. None is owed it, so one
    /// gone meanwhile changes nothing.
    func tellObservers(_ response: NotificationResponse, uid: UInt32) {
        let taker = Listener(uid: uid, app: response.app)
        let observer = Listener(uid: uid, app: response.app, observes: true)
        let watching = connections.withLockedValue { all in
            all.compactMap { $0.value.contains(observer) && !$0.value.contains(taker) ? $0.key : nil }
        }
        guard !watching.isEmpty else { return }
        let line = Self.line(response)
        for connection in watching { send(line, to: connection) }
    }

    /// Sends `response` to `recipients`, the connections that listened for it. When none
    /// of them takes it — each closed, or stopped reading, between the state's lock and the
    /// write — `undelivered` is called once, so that the response is not lost.
    func deliver(
        _ response: NotificationResponse, to recipients: [ConnectionIdentity],
        undelivered: @escaping @Sendable () -> Void
    ) {
        guard !recipients.isEmpty else {
            undelivered()
            return
        }
        let line = Self.line(response)
        let failures = NIOLockedValueBox(0)
        let count = recipients.count
        for connection in recipients {
            send(line, to: connection) {
                let all = failures.withLockedValue { failures in
                    failures += 1
                    return failures == count
                }
                if all { undelivered() }
            }
        }
    }

    /// Sends the responses that waited to `connection`, after the answer to the request
    /// being handled on its event loop (the `subscribe-responses` result comes first).
    /// Each response the connection did not take after all (it closed first) is handed to
    /// `undelivered`.
    func deliverPending(
        _ responses: [NotificationResponse], to connection: ConnectionIdentity,
        undelivered: @escaping @Sendable (NotificationResponse) -> Void
    ) {
        guard !responses.isEmpty else { return }
        guard let channel = registry.channel(connection) else {
            responses.forEach(undelivered)
            return
        }
        channel.eventLoop.execute { [self] in
            for response in responses {
                send(Self.line(response), to: connection) { undelivered(response) }
            }
        }
    }

    private func send(_ line: ByteBuffer, to connection: ConnectionIdentity, undelivered: (@Sendable () -> Void)? = nil) {
        SubscriberLine.send(
            line, to: connection, registry: registry, statistics: statistics, logger: logger, kind: "response subscriber",
            undelivered: undelivered
        )
    }

    private static func line(_ response: NotificationResponse) -> ByteBuffer {
        SubscriberLine.line(method: NotificationResponse.method, params: response)
    }
}
