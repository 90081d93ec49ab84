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
/// Focus in effect (`get-focus` with `subscribe`); the loop then reads `get-focus` and
/// publishes what changed. Remote changes: a message newer by the hybrid
/// clock than the change in effect, from another host, is applied with `set-focus`. The
/// change in effect remembers its time and host, so an applied change is never published
/// again as this host's (no echo, no flapping).
final class SyncLoop {
    private enum Pending {
        case read
        case apply(FocusMessage, FocusState)
    }

    private let configuration: SyncConfiguration
    private let link: DaemonLink
    private let broker: Broker
    private let signals: Int32
    private var pending: [Int: Pending] = [:]
    private var clock = HybridLogicalClock()
    /// The Focus on here as last read or applied; nil until the first `get-focus` answers.
    private var current: FocusState?
    /// When, and on which host, the change in effect was made (one being applied included).
    private var currentTime = HybridTimestamp.zero
    private var currentHost = ""
    /// A local change the broker has not taken yet, published again on reconnection.
    private var unpublished: FocusMessage?
    private var reading = false
    private var readAgain = false
    private var brokerStarted = false

    init(configuration: SyncConfiguration, link: DaemonLink, broker: Broker) {
        self.configuration = configuration
        self.link = link
        self.broker = broker
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTERM)
        sigaddset(&mask, SIGINT)
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        signals = signalfd(-1, &mask, Int32(SFD_CLOEXEC) | Int32(SFD_NONBLOCK))
    }

    /// Runs until a signal (0) or until heraldd or the broker's settings fail (1).
    func run() -> Int32 {
        do {
            reading = true
            try send("get-focus", ["subscribe": true], .read)
            while true {
                var descriptors = [
                    pollfd(fd: link.fd, events: Int16(POLLIN) | (link.hasOutput ? Int16(POLLOUT) : 0), revents: 0),
                    pollfd(fd: broker.wakeup, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
                if ready < 0, errno == EINTR { continue }
                if descriptors[2].revents != 0 {
                    SyncLog.info("stopping")
                    broker.stop()
                    return 0
                }
                if descriptors[0].revents & Int16(POLLOUT) != 0 { try link.flushOutput() }
                if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    for line in try link.readLines() { try handleDaemonLine(line) }
                }
                if descriptors[1].revents != 0 {
                    for event in broker.takeEvents() { try handleBrokerEvent(event) }
                }
            }
        } catch let failure as DaemonLink.Failure {
            SyncLog.info("heraldd: \(failure)")
        } catch {
            SyncLog.info("\(error)")
        }
        broker.stop()
        return 1
    }

    private func send(_ method: String, _ params: JSONObject, _ purpose: Pending) throws(DaemonLink.Failure) {
        pending[try link.request(method, params: params)] = purpose
    }

    /// Asks `get-focus`, once at a time: a change while a read is on its way reads again.
    private func readFocus() throws(DaemonLink.Failure) {
        if reading {
            readAgain = true
            return
        }
        reading = true
        try send("get-focus", [:], .read)
    }

    private func handleDaemonLine(_ line: ArraySlice<UInt8>) throws {
        guard let message = try? JSONParser.parse(line).objectValue else {
            SyncLog.info("heraldd sent a line that is not a JSON object")
            return
        }
        if message["method"]?.stringValue == ActiveFocusChangedNotification.method {
            try readFocus()
            return
        }
        guard let id = message["id"]?.numberValue?.intValue, let purpose = pending.removeValue(forKey: id) else { return }
        if let error = message["error"]?.objectValue {
            let reason = error["data"]?.objectValue?["reason"]?.stringValue ?? error["message"]?.stringValue ?? "an error"
            switch purpose {
            case .read:
                guard current != nil else { throw SyncLoop.Failure(description: "heraldd refused to let herald-sync follow the Focus: \(reason)") }
                reading = false
                SyncLog.info("get-focus failed: \(reason)")
            case .apply(let change, _):
                SyncLog.info("could not apply \(change.host)'s Focus \(change.focus ?? "off"): \(reason)")
            }
            return
        }
        let result = message["result"]?.objectValue ?? [:]
        switch purpose {
        case .read:
            reading = false
            try focusRead(result)
            if readAgain {
                readAgain = false
                try readFocus()
            }
        case .apply(let change, let applied):
            SyncLog.info("applied \(change.host)'s change: Focus \(change.focus ?? "off")")
            guard currentTime == change.time, currentHost == change.host else {
                // A change made here was published while this one was on its way, and
                // set-focus then replaced it: read again, and publish what is on now, so
                // that every host ends with the same Focus.
                try readFocus()
                return
            }
            current = applied
        }
    }

    /// The answer of `get-focus`: the first sets the baseline and starts the broker; a later
    /// one that differs from the Focus in effect is this host's change, published.
    private func focusRead(_ result: JSONObject) throws {
        let active = result["active"]?.objectValue
        let reason = active?["reason"]?.stringValue
        let state = FocusState(
            focus: active?["name"]?.stringValue,
            until: reason == "until" ? active?["endsAt"]?.stringValue.flatMap(RFC3339.parse) : nil
        )
        guard let known = current else {
            current = state
            if !brokerStarted {
                brokerStarted = true
                try broker.start(host: configuration.brokerHost, port: configuration.brokerPort)
                SyncLog.info("connecting to \(configuration.brokerHost):\(configuration.brokerPort) as host \(configuration.hostName), topic \(configuration.focusTopic)")
            }
            return
        }
        guard state != known else { return }
        // A Focus that reached its `until` ends on every host by itself, each on its own
        // clock: nothing to publish, or every host would publish the same end.
        if state == .off, let until = known.until, until <= Date() {
            current = state
            return
        }
        let change = FocusMessage(
            focus: state.focus, until: state.until, cause: reason, account: configuration.account, host: configuration.hostName,
            time: clock.tick(now: Self.now())
        )
        current = state
        currentTime = change.time
        currentHost = change.host
        publish(change)
    }

    private func publish(_ change: FocusMessage) {
        do {
            try broker.publish(change.encoded(), topic: configuration.focusTopic)
            unpublished = nil
            SyncLog.info("published this host's change: Focus \(change.focus ?? "off")")
        } catch {
            unpublished = change
            SyncLog.info("kept this host's change for when the broker is back: \(error)")
        }
    }

    private func handleBrokerEvent(_ event: Broker.Event) throws {
        switch event {
        case .connected:
            SyncLog.info("connected to the broker \(configuration.brokerHost):\(configuration.brokerPort)")
            if let unpublished { publish(unpublished) }
        case .refused(let reason):
            SyncLog.info("the broker refused the connection: \(reason)")
        case .disconnected(let reason):
            SyncLog.info("disconnected from the broker: \(reason); reconnecting")
        case .message(let topic, let payload):
            try received(payload, on: topic)
        }
    }

    /// A message on the Focus topic: refused (and logged) unless well formed, of this
    /// account, from another host and newer than the change in effect.
    private func received(_ payload: [UInt8], on topic: String) throws {
        guard topic == configuration.focusTopic else {
            SyncLog.info("refused a message on \(topic): not this account's Focus topic")
            return
        }
        let change: FocusMessage
        do {
            change = try FocusMessage.read(payload)
        } catch {
            SyncLog.info("refused a message on \(topic): \(error)")
            return
        }
        guard change.account == configuration.account else {
            SyncLog.info("refused a message on \(topic): it is account \(change.account)'s, not \(configuration.account)'s")
            return
        }
        clock.witness(change.time, now: Self.now())
        guard change.host != configuration.hostName else { return }
        guard change.isNewer(than: currentTime, host: currentHost) else {
            SyncLog.info("refused a message on \(topic): \(change.host)'s change is not newer than the one in effect")
            return
        }
        var state = change.state
        var params: JSONObject = ["focus": .null]
        if let name = state.focus {
            if let until = state.until, until <= Date() {
                state = .off
            } else {
                var focus: JSONObject = ["name": .string(name)]
                if let until = state.until { focus["until"] = .string(RFC3339.format(until)) }
                params = ["focus": .object(focus)]
            }
        }
        // The change in effect from now: a later message must be newer than this one,
        // even before heraldd has answered.
        currentTime = change.time
        currentHost = change.host
        try send("set-focus", params, .apply(change, state))
    }

    private static func now() -> Int64 { RFC3339.milliseconds(Date()) }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
