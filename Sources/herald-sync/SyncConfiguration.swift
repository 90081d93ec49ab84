import FoundationEssentials
import Glibc
import HeraldProtocol

/// herald-sync's settings, read from `$XDG_CONFIG_HOME/herald/sync.conf` (or `--config`):
/// one `key = value` a line, `#` starting a comment (docs/sync.md lists the keys).
struct SyncConfiguration {
    var brokerHost = "localhost"
    var brokerPort = 1883
    var username: String?
    /// Read from `password-file`, its first line: the password itself never sits in the
    /// configuration, which is easier to share or show.
    var password: String?
    /// With a CA file, the broker is reached over TLS and its certificate checked against it.
    var caFile: String?
    /// This host's client certificate and its key (PEM, the key not encrypted), for a broker
    /// that asks for one (mosquitto's `require_certificate`); over TLS only, so with `caFile`.
    var certFile: String?
    var keyFile: String?
    var account = ""
    var hostName = ""
    var topicPrefix = "herald"
    /// Seconds between MQTT keepalives when nothing else is sent; the broker takes a host
    /// for gone (and publishes its last will) after one and a half of them without a word.
    var keepalive = 60
    /// Whether to publish Home Assistant's MQTT discovery for the Focus, under `discoveryPrefix`.
    var homeAssistant = false
    var discoveryPrefix = "homeassistant"

    /// The retained topic holding the person's Focus.
    var focusTopic: String { "\(topicPrefix)/\(account)/focus" }
    /// The filter of every topic of the account, which herald-sync follows.
    var accountTopics: String { "\(topicPrefix)/\(account)/#" }
    /// The retained topic of the person's definition whose topic level is `level`.
    func definitionTopic(_ level: String) -> String { "\(topicPrefix)/\(account)/focuses/\(level)" }
    /// Where `host` says, retained, whether it is `online` or `offline`.
    func hostTopic(_ host: String) -> String { "\(topicPrefix)/\(account)/hosts/\(host)" }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The default file: `$XDG_CONFIG_HOME/herald/sync.conf`, else `~/.config/herald/sync.conf`.
    static func defaultPath(environment: [String: String]) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(environment["HOME"] ?? "")/.config"
        return "\(base)/herald/sync.conf"
    }

    /// Reads the file at `path`; each line's fault names its line.
    init(path: String, defaultHostName: String) throws(Failure) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(description: "cannot read \(path)")
        }
        hostName = defaultHostName
        var passwordFile: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "\(path):\(index + 1)"
            guard let equals = line.firstIndex(of: "=") else { throw Failure(description: "\(place): expected key = value") }
            let key = line[..<equals].trimmingBlanks()
            let value = line[line.index(after: equals)...].trimmingBlanks()
            guard !value.isEmpty else { throw Failure(description: "\(place): \(key) has no value") }
            switch key {
            case "broker-host": brokerHost = value
            case "broker-port":
                guard let port = Int(value), (1...65535).contains(port) else {
                    throw Failure(description: "\(place): broker-port is a number from 1 to 65535")
                }
                brokerPort = port
            case "username": username = value
            case "password-file": passwordFile = value
            case "ca-file": caFile = value
            case "cert-file": certFile = value
            case "key-file": keyFile = value
            case "account": account = value
            case "host-name": hostName = value
            case "topic-prefix": topicPrefix = value
            case "home-assistant":
                guard ["yes", "no"].contains(value) else { throw Failure(description: "\(place): home-assistant is yes or no") }
                homeAssistant = value == "yes"
            case "discovery-prefix": discoveryPrefix = value
            case "keepalive":
                guard let seconds = Int(value), (5...3600).contains(seconds) else {
                    throw Failure(description: "\(place): keepalive is a number of seconds from 5 to 3600")
                }
                keepalive = seconds
            default:
                throw Failure(
                    description:
                        "\(place): unknown key \(key); the keys are broker-host, broker-port, username, password-file, ca-file, cert-file, key-file, account, host-name, topic-prefix, keepalive, home-assistant, discovery-prefix"
                )
            }
        }
        for (key, value) in [("account", account), ("host-name", hostName), ("topic-prefix", topicPrefix)] {
            guard !value.contains(where: { "/+#".contains($0) }), !value.isEmpty else {
                throw Failure(description: "\(path): \(key) must be given, without /, + or #")
            }
        }
        if let passwordFile {
            guard let secret = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                throw Failure(description: "\(path): cannot read the password-file \(passwordFile)")
            }
            password = secret.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        }
        if password != nil, username == nil { throw Failure(description: "\(path): password-file needs username") }
        if (certFile == nil) != (keyFile == nil) {
            throw Failure(description: "\(path): cert-file and key-file go together: the client certificate and its key")
        }
        if certFile != nil, caFile == nil {
            throw Failure(description: "\(path): cert-file needs ca-file: a client certificate is sent over TLS only")
        }
        for (key, file) in [("ca-file", caFile), ("cert-file", certFile), ("key-file", keyFile)] {
            guard let file else { continue }
            // Said at start, with the key's name: libmosquitto would only say "Invalid arguments".
            guard access(file, R_OK) == 0 else {
                throw Failure(description: "\(path): cannot read the \(key) \(file): \(String(cString: strerror(errno)))")
            }
        }
    }
}
