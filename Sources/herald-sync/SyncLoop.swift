import CMosquitto
import FoundationEssentials
import Glibc
import HeraldClient
import HeraldProtocol
import HeraldSync

/// herald-sync's one loop: it sleeps in `poll` on heraldd's socket, the broker's wakeup
/// and SIGTERM/SIGINT, and moves Focus changes between them.
///
/// Local changes: heraldd tells `active-focus-changed` at each change of the person's
/// Focus in effect and `focus-defined` at each change of a definition (`get-focus` with
/// `subscribe`); the loop reads `get-focus` or takes the definition, and publishes what
/// changed. Remote changes: a message newer by the hybrid clock than the change in effect,
/// from another host, is applied with `set-focus`, `define-focus` or `delete-focus`. Each
/// change in effect remembers its time and host, so an applied change is never published
/// again as this host's (no echo, no flapping). The Focus is in SyncLoop+Focus.swift, the
/// definitions in SyncLoop+Definitions.swift.
final class SyncLoop {
    enum Pending {
        /// `get-focus` at start, a page at a time: the definitions and the Focus on.
        case baseline
        case read
        /// `set-focus` of another host's change; `defining` names the Focus it defines
        /// here with the defaults, when this host had no definition of it.
        case apply(FocusMessage, FocusState, defining: String?)
        case applyDefinition(DefinitionMessage)
    }

    /// A definition in effect here: as heraldd lists it (members sorted; nil: none), and
    /// the time and host of the change that made it (zero and "" when it was here before).
    struct Definition: Equatable {
        var focus: JSONObject?
        var time: HybridTimestamp
        var host: String
        static let unknown = Definition(focus: nil, time: .zero, host: "")
    }

    let configuration: SyncConfiguration
    private let heraldd: HeraldPollConnection
    let broker: Broker
    private let signals: Int32
    var clock = HybridLogicalClock()
    /// The Focus on here as last read or applied; nil until the start's `get-focus` answers.
    var current: FocusState?
    /// Why it is on (get-focus's `active.reason`), and when heraldd said it changes next by itself.
    var currentReason: String?
    var nextChange: Date?
    /// When, and on which host, the change in effect was made (one being applied included).
    var currentTime = HybridTimestamp.zero
    var currentHost = ""
    /// A local change the broker has not taken yet, published again on reconnection.
    var unpublished: FocusMessage?
    /// This host's last change of the Focus, to publish again when the broker's retained
    /// copy is older.
    var lastPublished: FocusMessage?
    var reading = false
    var readAgain = false
    var brokerStarted = false
    /// Whether the broker has taken herald-sync's connection once since it started.
    var everConnected = false
    /// The person's definitions by name, tombstones included.
    var definitions: [String: Definition] = [:] {
        didSet { announceToHomeAssistant() }
    }
    /// The Focuses last told Home Assistant; nil: not told on this connection yet.
    var announcedFocuses: [String]?
    /// Definitions changed here that the broker has not taken yet.
    var unpublishedDefinitions: [String: DefinitionMessage] = [:]
    /// Other hosts' definitions on their way to heraldd (`define-focus`, `delete-focus`),
    /// by name: the `focus-defined` that tells one of them is taken in, not published.
    var expectedDefinitions: [String: [JSONObject?]] = [:]
    /// `set-focus` requests on their way that define a Focus with the defaults, by name.
    var defaultDefinitions: [String: Int] = [:]
    /// What `heraldctl sync status` reads, written to ``statusPath`` at each change.
    var status: SyncStatus
    private let statusPath: String
    private var statusWriteFailed = false

    init(configuration: SyncConfiguration, heraldd: HeraldPollConnection, broker: Broker, statusPath: String) {
        self.configuration = configuration
        self.heraldd = heraldd
        self.broker = broker
        self.statusPath = statusPath
        status = SyncStatus(
            pid: getpid(), broker: "\(configuration.brokerHost):\(configuration.brokerPort)", account: configuration.account,
            host: configuration.hostName, now: Date())
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTERM)
        sigaddset(&mask, SIGINT)
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        signals = signalfd(-1, &mask, Int32(SFD_CLOEXEC) | Int32(SFD_NONBLOCK))
    }

    /// Runs until a signal (0) or until heraldd or the broker's settings fail (1).
    func run() -> Int32 {
        heraldd.onNotification = { [unowned self] method, params in try self.notified(method, params) }
        do {
            saveStatus()
            reading = true
            try send("get-focus", ["subscribe": true], .baseline)
            while true {
                var descriptors = [
                    pollfd(fd: heraldd.fileDescriptor, events: heraldd.pollEvents, revents: 0),
                    pollfd(fd: broker.wakeup, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
                if ready < 0, errno == EINTR { continue }
                if descriptors[2].revents != 0 {
                    SyncLog.info("stopping")
                    broker.stop()
                    changeLink(.disconnected, reason: "herald-sync stopped")
                    return 0
                }
                try handleDaemon(descriptors[0].revents)
                if descriptors[1].revents != 0 {
                    for event in broker.takeEvents() { try handleBrokerEvent(event) }
                }
            }
        } catch let failure as HeraldError {
            SyncLog.info("heraldd: \(failure)")
        } catch {
            SyncLog.info("\(error)")
        }
        broker.stop()
        changeLink(.disconnected, reason: "herald-sync stopped")
        return 1
    }

    /// Writes ``status`` for `heraldctl sync status`; a failure is logged once, and the
    /// Focus goes on travelling.
    func saveStatus() {
        do {
            try status.write(to: statusPath)
            statusWriteFailed = false
        } catch {
            if !statusWriteFailed { SyncLog.info("cannot write the status file \(statusPath): \(error)") }
            statusWriteFailed = true
        }
    }

    func changeLink(_ link: SyncStatus.Link, reason: String?) {
        status.link = link
        status.linkReason = reason
        status.linkSince = Date()
        saveStatus()
    }

    /// libmosquitto could not reach the broker, and tries again: said while not connected
    /// only (the link's own state says the rest), and once for each error.
    func brokerFailing(_ error: String) {
        let reason = Self.naming(configuration.certFile, in: error, everConnected: everConnected)
        guard status.link != .connected, status.linkReason != reason else { return }
        SyncLog.info("cannot connect to the broker: \(reason); trying again")
        changeLink(.failing, reason: reason)
    }

    /// `error` with the client certificate named when it is the broker's TLS alert about
    /// it (OpenSSL's `tlsv1 alert unknown ca`, `sslv3 alert bad certificate`): the person
    /// then knows which file the broker refused. Over TLS 1.3 the broker checks the
    /// certificate after the handshake and closes the connection, which libmosquitto says
    /// as `Protocol error`: with a certificate, before any connection, that is named too.
    static func naming(_ certFile: String?, in error: String, everConnected: Bool) -> String {
        guard let certFile else { return error }
        if error.contains(" alert "), error.contains("unknown ca") || error.contains("certificate") {
            return "the broker refused this host's client certificate (cert-file \(certFile)): \(error)"
        }
        if error == "Protocol error", !everConnected {
            return "the broker closed the connection at the TLS handshake (\(error)): it refuses this host's client certificate (cert-file \(certFile)), or is not an MQTT broker"
        }
        return error
    }

    /// Logs a message not taken, and keeps it as the last refused for `heraldctl sync status`.
    func refuse(on topic: String, _ reason: String) {
        SyncLog.info("refused a message on \(topic): \(reason)")
        status.lastRefused = SyncStatus.Event(at: Date(), topic: topic, detail: reason)
        saveStatus()
    }

    /// Publishes Home Assistant's discovery of the Focus, retained, when it is asked for
    /// and the person's Focuses are not those it was last told on this connection.
    func announceToHomeAssistant() {
        guard configuration.homeAssistant, status.link == .connected else { return }
        let focuses = definitions.filter { $0.value.focus != nil }.keys.sorted()
        guard focuses != announcedFocuses else { return }
        let discovery = HomeAssistantDiscovery(configuration: configuration, focuses: focuses)
        do {
            try broker.publish(discovery.payload, topic: discovery.topic)
            announcedFocuses = focuses
        } catch {
            SyncLog.info("could not publish Home Assistant's discovery: \(error)")
        }
    }

    /// The message `read` reads, or nil when it is not well formed or is another account's
    /// (refused and logged).
    func accepted<Message: SyncMessage>(on topic: String, _ read: () throws -> Message) -> Message? {
        let message: Message
        do {
            message = try read()
        } catch {
            refuse(on: topic, "\(error)")
            return nil
        }
        guard message.account == configuration.account else {
            refuse(on: topic, "it is account \(message.account)'s, not \(configuration.account)'s")
            return nil
        }
        return message
    }

    func noteSent(on topic: String, _ detail: String) {
        status.lastSent = SyncStatus.Event(at: Date(), topic: topic, detail: detail)
        saveStatus()
    }

    func noteReceived(on topic: String, _ detail: String) {
        status.lastReceived = SyncStatus.Event(at: Date(), topic: topic, detail: detail)
        saveStatus()
    }

    func send(_ method: String, _ params: JSONObject, _ purpose: Pending) throws(HeraldError) {
        try heraldd.send(method, params: params) { [unowned self] answer in try self.answered(purpose, answer) }
    }

    /// Asks `get-focus`, once at a time: a change while a read is on its way reads again.
    func readFocus() throws(HeraldError) {
        if reading {
            readAgain = true
            return
        }
        reading = true
        try send("get-focus", [:], .read)
    }

    /// Hands heraldd's output to the connection's handlers; a line that is not JSON-RPC is
    /// logged and skipped.
    private func handleDaemon(_ revents: Int16) throws {
        var revents = revents
        while true {
            do {
                return try heraldd.handle(revents)
            } catch let error as HeraldError where error.kind == .unreadable && heraldd.fileDescriptor >= 0 {
                SyncLog.info("heraldd: \(error)")
                revents = 0
            }
        }
    }

    /// A notification of the `get-focus` subscription.
    private func notified(_ method: String, _ params: JSONValue) throws {
        switch method {
        case ActiveFocusChangedNotification.method:
            try readFocus()
        case FocusDefinedNotification.method:
            let params = params.objectValue
            if let name = params?["name"]?.stringValue { definitionChanged(name, params?["focus"]?.objectValue) }
        default: break
        }
    }

    /// The answer to a request sent for `purpose`: its result, or heraldd's error.
    private func answered(_ purpose: Pending, _ answer: Result<JSONValue, HeraldError>) throws {
        if case .failure(let error) = answer {
            // The connection's end ends the loop: handle(_:) throws it next.
            if error.kind == .connectionLost { return }
            let reason = error.reason ?? error.message
            switch purpose {
            case .baseline:
                throw SyncLoop.Failure(description: "heraldd refused to let herald-sync follow the Focus: \(reason)")
            case .read:
                reading = false
                SyncLog.info("get-focus failed: \(reason)")
            case .apply(let change, _, let defining):
                if let defining { defaultDefinitions[defining, default: 1] -= 1 }
                SyncLog.info("could not apply \(change.host)'s Focus \(change.focus ?? "off"): \(reason)")
            case .applyDefinition(let change):
                expectDefinition(change.name, nil, done: change.focus.map(Self.sorted))
                SyncLog.info("could not apply \(change.host)'s definition of \(change.name): \(reason)")
            }
            return
        }
        let result = (try? answer.get())?.objectValue ?? [:]
        switch purpose {
        case .baseline:
            try baselineRead(result)
        case .read:
            reading = false
            try focusRead(result)
            if readAgain {
                readAgain = false
                try readFocus()
            }
        case .apply(let change, let applied, let defining):
            if let defining { defaultDefinitions[defining, default: 1] -= 1 }
            try focusApplied(change, applied)
        case .applyDefinition(let change):
            try definitionApplied(change)
        }
    }

    /// One page of the start's `get-focus`: its definitions are those in effect here; after
    /// the last page, the Focus on is taken as it is and the broker is reached.
    private func baselineRead(_ result: JSONObject) throws {
        for case .object(let focus) in result["focuses"]?.arrayValue ?? [] {
            guard let name = focus["name"]?.stringValue else { continue }
            definitions[name] = Definition(focus: Self.sorted(focus), time: .zero, host: "")
        }
        if let cursor = result["nextCursor"]?.stringValue {
            try send("get-focus", ["cursor": .string(cursor)], .baseline)
            return
        }
        reading = false
        try focusRead(result)
        if readAgain {
            readAgain = false
            try readFocus()
        }
    }

    private func handleBrokerEvent(_ event: Broker.Event) throws {
        switch event {
        case .connected:
            SyncLog.info("connected to the broker \(configuration.brokerHost):\(configuration.brokerPort)")
            changeLink(.connected, reason: nil)
            everConnected = true
            announcedFocuses = nil
            announceToHomeAssistant()
            if let unpublished { publish(unpublished) }
            for change in unpublishedDefinitions.values.sorted(by: { $0.name < $1.name }) { publish(change) }
        case .refused(let reason):
            SyncLog.info("the broker refused the connection: \(reason)")
            changeLink(.refused, reason: reason)
        case .subscriptionRefused(let filter):
            let reason = "the broker refuses the subscription to \(filter) (its ACL)"
            SyncLog.info("\(reason); nothing travels until the broker allows it")
            changeLink(.refused, reason: reason)
        case .publicationRefused(let reason):
            let refusal = "the broker refuses publications under \(configuration.topicPrefix)/\(configuration.account)/ (its ACL): \(reason)"
            SyncLog.info("\(refusal); this host's changes do not travel until the broker allows them")
            changeLink(.refused, reason: refusal)
        case .failing(let reason):
            brokerFailing(reason)
        case .disconnected(let reason):
            SyncLog.info("disconnected from the broker: \(reason); reconnecting")
            // A refusal or an error stays what the person reads: the disconnection that
            // follows it says less.
            if status.link != .refused, status.link != .failing { changeLink(.disconnected, reason: reason) }
        case .message(let topic, let payload):
            try received(payload, on: topic)
        }
    }

    /// A message on one of the account's topics: the Focus, a definition, or a host's
    /// `online`/`offline`.
    private func received(_ payload: [UInt8], on topic: String) throws {
        let hostsPrefix = configuration.hostTopic("")
        let definitionsPrefix = configuration.definitionTopic("")
        if topic.hasPrefix(hostsPrefix) {
            hostSaid(payload, host: String(topic.dropFirst(hostsPrefix.count)), on: topic)
        } else if topic.hasPrefix(definitionsPrefix) {
            try receivedDefinition(payload, on: topic)
        } else if topic == configuration.focusTopic {
            try receivedFocus(payload, on: topic)
        } else {
            refuse(on: topic, "not a topic herald-sync reads")
        }
    }

    /// A host's retained `online` or `offline` (its last will); an empty payload clears it.
    private func hostSaid(_ payload: [UInt8], host: String, on topic: String) {
        let said = String(decoding: payload, as: UTF8.self)
        switch said {
        case "online", "offline": status.hosts[host] = said
        case "": status.hosts[host] = nil
        default:
            refuse(on: topic, "a host says online or offline")
            return
        }
        if host != configuration.hostName { SyncLog.info("host \(host) is \(said.isEmpty ? "forgotten" : said)") }
        saveStatus()
    }

    /// `object` with its members, and those of the objects inside, in name order: two
    /// listings of one definition compare equal however they were written.
    static func sorted(_ object: JSONObject) -> JSONObject {
        func sorted(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object): return .object(Self.sorted(object))
            case .array(let elements): return .array(elements.map(sorted))
            default: return value
            }
        }
        return JSONObject(object.members.sorted { $0.key < $1.key }.map { JSONObject.Member(key: $0.key, value: sorted($0.value)) })
    }

    static func now() -> Int64 { RFC3339.milliseconds(Date()) }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
