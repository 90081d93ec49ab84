import CMosquitto
import FoundationEssentials
import Glibc
import HeraldSync
import Synchronization

/// herald-sync's link to the MQTT broker, through libmosquitto and its own network thread
/// (`mosquitto_loop_start`), which connects, keeps alive and reconnects by itself.
///
/// What arrives on that thread is queued, and an eventfd wakes the sync loop to take it:
/// the loop sleeps in `poll` until heraldd or the broker has something, never polling.
final class Broker: @unchecked Sendable {
    /// What the network thread saw, for the sync loop.
    enum Event {
        case connected
        case refused(String)
        /// The broker took the connection but refused the subscription (its ACL).
        case subscriptionRefused(String)
        /// The broker refused one of herald-sync's publications (its ACL), with its reason.
        case publicationRefused(String)
        /// libmosquitto could not reach the broker: its error (a TLS certificate the CA did
        /// not sign, a connection refused, a broker that closed before it answered), said
        /// before it tries again.
        case failing(String)
        case disconnected(String)
        case message(topic: String, payload: [UInt8])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Readable while events wait in ``takeEvents()``.
    let wakeup: Int32
    private let client: OpaquePointer
    private let events = Mutex<[Event]>([])
    /// What the connection attempt under way has said so far: an attempt ends at a
    /// disconnection, and one that ends before the broker answered failed.
    private let attempt = Mutex<(answered: Bool, failureSaid: Bool)>((false, false))
    /// Every topic of the person's account: their Focus, their definitions, their hosts.
    private let subscription: String
    /// This host's retained `online`/`offline`: `offline` is also the last will, which the
    /// broker publishes when herald-sync vanishes without saying goodbye.
    private let hostTopic: String
    private let keepalive: Int32
    /// Events held for the loop at most: a broker that floods the topic loses the oldest
    /// messages rather than herald-sync's memory growing without end.
    static let maximumWaitingEvents = 1024
    /// The longest payload any topic of herald-sync's takes (a Focus definition's).
    static let maximumPayloadBytes = max(FocusMessage.maximumBytes, DefinitionMessage.maximumBytes)

    init(configuration: SyncConfiguration) throws(Failure) {
        mosquitto_lib_init()
        subscription = configuration.accountTopics
        hostTopic = configuration.hostTopic(configuration.hostName)
        keepalive = Int32(configuration.keepalive)
        wakeup = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard wakeup >= 0 else { throw Failure(description: "eventfd: \(String(cString: strerror(errno)))") }
        let clientID = "herald-sync-\(configuration.account)-\(configuration.hostName)".utf8.prefix(23)
        guard let client = mosquitto_new(String(decoding: clientID, as: UTF8.self), true, nil) else {
            throw Failure(description: "mosquitto_new: \(String(cString: strerror(errno)))")
        }
        self.client = client
        mosquitto_user_data_set(client, Unmanaged.passUnretained(self).toOpaque())
        // MQTT 5, whose acknowledgements carry a reason: a publication or subscription the
        // broker's ACL refuses is answered "Not authorized", not dropped without a word.
        _ = mosquitto_int_option(client, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V5))
        if let username = configuration.username {
            try check(mosquitto_username_pw_set(client, username, configuration.password), "username")
        }
        if let caFile = configuration.caFile {
            // An encrypted key is refused rather than asked for on a terminal no one reads.
            let noPassphrase: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = { _, _, _, _ in 0 }
            try check(
                mosquitto_tls_set(client, caFile, nil, configuration.certFile, configuration.keyFile, noPassphrase),
                configuration.certFile.map { "TLS CA file \(caFile), client certificate \($0)" } ?? "TLS CA file \(caFile)")
        }
        try check(mosquitto_will_set(client, hostTopic, 7, "offline", 1, true), "setting the last will on \(hostTopic)")
        // Tries again after 1 s, then twice as long each time, up to 30 s or the keepalive
        // if shorter: a host back from a partition is connected again within that.
        mosquitto_reconnect_delay_set(client, 1, UInt32(min(30, configuration.keepalive)), true)
        mosquitto_connect_callback_set(client) { _, object, code in
            Broker.from(object).connected(code: code)
        }
        mosquitto_disconnect_callback_set(client) { _, object, code in
            Broker.from(object).disconnected(String(cString: mosquitto_strerror(code)))
        }
        mosquitto_subscribe_callback_set(client) { _, object, _, count, granted in
            // A reason code from 0x80 up instead of a QoS: refused.
            guard count > 0, let granted, granted[0] >= 0x80 else { return }
            let broker = Broker.from(object)
            broker.record(.subscriptionRefused(broker.subscription))
        }
        mosquitto_publish_v5_callback_set(client) { _, object, _, reason, _ in
            guard reason >= 0x80 else { return }
            Broker.from(object).record(.publicationRefused(String(cString: mosquitto_reason_string(reason))))
        }
        mosquitto_log_callback_set(client) { _, object, level, text in
            guard level & MOSQ_LOG_ERR != 0, let text else { return }
            let broker = Broker.from(object)
            broker.attempt.withLock { $0.failureSaid = true }
            broker.record(.failing(String(cString: text)))
        }
        mosquitto_message_callback_set(client) { _, object, message in
            guard let message = message?.pointee, let topic = message.topic else { return }
            // Read no more than one byte past the bound: enough to refuse it as too long.
            let count = min(Int(message.payloadlen), Broker.maximumPayloadBytes + 1)
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            Broker.from(object).record(.message(topic: String(cString: topic), payload: payload))
        }
    }

    deinit {
        mosquitto_destroy(client)
        close(wakeup)
    }

    private static func from(_ object: UnsafeMutableRawPointer?) -> Broker {
        Unmanaged<Broker>.fromOpaque(object!).takeUnretainedValue()
    }

    private func check(_ code: Int32, _ what: String) throws(Failure) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw Failure(description: "\(what): \(String(cString: mosquitto_strerror(code)))")
        }
    }

    /// Starts the network thread and connects in the background; reconnects by itself,
    /// also when the first try fails at once: then its error. A broker quick to answer
    /// can refuse the TLS handshake before the connect returns (seen on a loaded machine);
    /// libmosquitto's log has then said why (`certificate verify failed`), and that event,
    /// already waiting, is what the person is shown instead of "A TLS error occurred.".
    func start(host: String, port: Int) throws(Failure) -> String? {
        let connecting = mosquitto_connect_async(client, host, Int32(port), keepalive)
        // Read before the network thread starts, so that what it says of later attempts is its own.
        let failureSaid =
            connecting != MOSQ_ERR_SUCCESS.rawValue
            && attempt.withLock { attempt in
                defer { attempt = (false, false) }
                return attempt.failureSaid
            }
        try check(mosquitto_loop_start(client), "starting libmosquitto's thread")
        guard connecting != MOSQ_ERR_SUCCESS.rawValue, !failureSaid else { return nil }
        return String(cString: mosquitto_strerror(connecting))
    }

    /// Says this host is `offline`, disconnects and waits for the network thread to end.
    /// The goodbye goes out before the disconnection (libmosquitto sends in order); a
    /// disconnection said aloud is one the broker publishes no last will for.
    func stop() {
        _ = mosquitto_publish(client, nil, hostTopic, 7, "offline", 1, true)
        mosquitto_disconnect(client)
        mosquitto_loop_stop(client, false)
    }

    /// Publishes `payload` on `topic`, retained, at least once (QoS 1); libmosquitto's
    /// thread sends it, and sends it again after a reconnection until the broker has it.
    func publish(_ payload: [UInt8], topic: String) throws(Failure) {
        let code = payload.withUnsafeBytes { mosquitto_publish(client, nil, topic, Int32($0.count), $0.baseAddress, 1, true) }
        try check(code, "publishing on \(topic)")
    }

    /// The events that arrived since the last call, oldest first.
    func takeEvents() -> [Event] {
        var counter: UInt64 = 0
        _ = read(wakeup, &counter, 8)
        return events.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }

    private func connected(code: Int32) {
        attempt.withLock { $0.answered = true }
        guard code == 0 else {
            record(.refused(String(cString: mosquitto_reason_string(code))))
            return
        }
        // Subscribed anew on each connection (the session is clean): the broker then sends
        // the retained Focus and definitions, which is how a host that was away catches up.
        _ = mosquitto_subscribe(client, nil, subscription, 1)
        _ = mosquitto_publish(client, nil, hostTopic, 6, "online", 1, true)
        record(.connected)
    }

    /// The end of a connection attempt. One the broker never answered (no CONNACK) is a
    /// connect that failed, however libmosquitto says it: a broker that closes at the TLS
    /// handshake, as TLS 1.3 does when it refuses the client certificate after it, is
    /// `Protocol error` here. When libmosquitto's log already said why, that stays.
    private func disconnected(_ reason: String) {
        let ended = attempt.withLock { attempt in
            defer { attempt = (false, false) }
            return attempt
        }
        if ended.answered {
            record(.disconnected(reason))
        } else if !ended.failureSaid {
            record(.failing(reason))
        }
    }

    private func record(_ event: Event) {
        events.withLock { events in
            if events.count >= Self.maximumWaitingEvents { events.removeFirst() }
            events.append(event)
        }
        var one: UInt64 = 1
        _ = write(wakeup, &one, 8)
    }
}
