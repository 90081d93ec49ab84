import FoundationEssentials
import HeraldProtocol

/// What herald-sync tells `heraldctl sync status`: whether it is connected, to which
/// broker, when it last sent and received, what it last refused, and which of the person's
/// hosts are online.
///
/// herald-sync writes it to a file of the person's (``defaultPath(environment:uid:)``),
/// atomically and readable by them alone, each time one of these changes; heraldctl reads
/// the file. heraldd is not involved: it opens no network connection and knows nothing of
/// the broker.
package struct SyncStatus: Equatable, Sendable {
    /// Where the link to the broker stands.
    package enum Link: String, Sendable {
        case connecting, connected, refused, disconnected
        /// Not connected, libmosquitto's last error saying why (TLS, the network).
        case failing
    }

    /// A message that went out or came in, or was refused: when, on which topic, and why.
    package struct Event: Equatable, Sendable {
        package var at: Date
        package var topic: String
        package var detail: String

        package init(at: Date, topic: String, detail: String) {
            self.at = at
            self.topic = topic
            self.detail = detail
        }
    }

    /// herald-sync's process id, so that a reader can tell a status left by one that ended.
    package var pid: Int32
    package var broker: String
    package var account: String
    package var host: String
    package var link: Link
    /// Since when ``link`` holds, and why (the broker's or libmosquitto's words).
    package var linkSince: Date
    package var linkReason: String?
    package var lastSent: Event?
    package var lastReceived: Event?
    package var lastRefused: Event?
    /// The person's hosts as their retained `hosts/<host>` messages say: `online` or `offline`.
    package var hosts: [String: String]

    package init(pid: Int32, broker: String, account: String, host: String, now: Date) {
        self.pid = pid
        self.broker = broker
        self.account = account
        self.host = host
        link = .connecting
        linkSince = now
        hosts = [:]
    }

    /// The file: `$XDG_RUNTIME_DIR/herald/sync-status.json`, else `/run/user/<uid>/herald/…`.
    package static func defaultPath(environment: [String: String], uid: UInt32) -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(uid)"
        return "\(runtime)/herald/sync-status.json"
    }

    package var json: JSONValue {
        func event(_ event: Event?) -> JSONValue {
            guard let event else { return .null }
            return .object(["at": .string(RFC3339.format(event.at)), "topic": .string(event.topic), "detail": .string(event.detail)])
        }
        var hostsObject = JSONObject()
        for (name, state) in hosts.sorted(by: { $0.key < $1.key }) { hostsObject[name] = .string(state) }
        return .object([
            "pid": .number(JSONNumber(Int(pid))),
            "broker": .string(broker),
            "account": .string(account),
            "host": .string(host),
            "link": .string(link.rawValue),
            "linkSince": .string(RFC3339.format(linkSince)),
            "linkReason": linkReason.map { .string($0) } ?? .null,
            "lastSent": event(lastSent),
            "lastReceived": event(lastReceived),
            "lastRefused": event(lastRefused),
            "hosts": .object(hostsObject),
        ])
    }

    /// Reads a status file's text; nil when it is not one.
    package static func read(_ bytes: [UInt8]) -> SyncStatus? {
        guard let object = try? JSONParser.parse(bytes, maxDepth: 4).objectValue,
            let pid = object["pid"]?.numberValue?.intValue, let broker = object["broker"]?.stringValue,
            let account = object["account"]?.stringValue, let host = object["host"]?.stringValue,
            let link = object["link"]?.stringValue.flatMap(Link.init(rawValue:)),
            let since = object["linkSince"]?.stringValue.flatMap(RFC3339.parse)
        else { return nil }
        func event(_ key: String) -> Event? {
            guard let event = object[key]?.objectValue, let at = event["at"]?.stringValue.flatMap(RFC3339.parse),
                let topic = event["topic"]?.stringValue, let detail = event["detail"]?.stringValue
            else { return nil }
            return Event(at: at, topic: topic, detail: detail)
        }
        var status = SyncStatus(pid: Int32(pid), broker: broker, account: account, host: host, now: since)
        status.link = link
        status.linkReason = object["linkReason"]?.stringValue
        status.lastSent = event("lastSent")
        status.lastReceived = event("lastReceived")
        status.lastRefused = event("lastRefused")
        for member in object["hosts"]?.objectValue?.members ?? [] {
            if let state = member.value.stringValue { status.hosts[member.key] = state }
        }
        return status
    }

    /// Writes the status to `path` whole or not at all (a file beside it, then renamed),
    /// readable by its owner alone; its folder is made (0700) when missing.
    package func write(to path: String) throws(PrivateFile.WriteError) {
        var bytes: [UInt8] = []
        json.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        try PrivateFile.replace(path, with: bytes)
    }
}
