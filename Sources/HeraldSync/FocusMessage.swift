import FoundationEssentials
import HeraldProtocol

/// What travels on `<prefix>/<account>/focus`: which of the person's Focuses is on, until
/// when, why, and which host changed it when (Protocol/sync-focus.schema.json).
///
/// Only the Focus's name and times leave the host: never a notification, a person, an app
/// or an interaction.
package struct FocusMessage: SyncMessage, Equatable, Sendable {
    /// The Focus on, or nil for none.
    package var focus: String?
    /// When a Focus turned on with an end goes off by itself.
    package var until: Date?
    /// Why it is on where it was changed: `manual`, `until`, `schedule` or `held`; nil when off.
    package var cause: String?
    package var account: String
    package var host: String
    package var time: HybridTimestamp

    /// The longest payload read: a Focus name and a host name, with room to spare.
    package static let maximumBytes = 4096
    package static let causes: Set<String> = ["manual", "until", "schedule", "held"]

    /// Why a payload was not taken, for the log.
    package struct Refusal: Error, CustomStringConvertible {
        package var description: String
    }

    /// The Focus state it carries, to compare with the one on here.
    package var state: FocusState { FocusState(focus: focus, until: focus == nil ? nil : until) }

    /// Reads a payload, refusing anything but exactly the schema's members and types.
    package static func read(_ payload: [UInt8]) throws(Refusal) -> FocusMessage {
        guard payload.count <= maximumBytes else {
            throw Refusal(description: "the payload is \(payload.count) bytes, more than \(maximumBytes)")
        }
        let value: JSONValue
        do { value = try JSONParser.parse(payload, maxDepth: 4) } catch { throw Refusal(description: "the payload is not JSON: \(error)") }
        guard let object = value.objectValue else { throw Refusal(description: "the payload is not a JSON object") }
        let known: Set<String> = ["focus", "until", "cause", "account", "host", "hlc"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw Refusal(description: "/\(unknown) is not a known member")
        }
        func string(_ key: String, optional: Bool) throws(Refusal) -> String? {
            switch object[key] {
            case .string(let text) where !text.isEmpty && text.utf8.count <= 255: return text
            case .null where optional, nil where optional: return nil
            default: throw Refusal(description: "/\(key) must be a string of 1 to 255 bytes\(optional ? " or null" : "")")
            }
        }
        let focus = try string("focus", optional: true)
        let untilText = try string("until", optional: true)
        let cause = try string("cause", optional: true)
        let envelope = try Envelope(object)
        var until: Date?
        if let untilText {
            guard let date = RFC3339.parse(untilText) else { throw Refusal(description: "/until is not an RFC 3339 time") }
            // The wire's precision, as every host writes it: a finer time from another client
            // would otherwise differ from itself once passed on.
            until = Date(timeIntervalSince1970: Double(RFC3339.milliseconds(date)) / 1000)
        }
        if let cause, !causes.contains(cause) { throw Refusal(description: "/cause is not one of \(causes.sorted())") }
        return FocusMessage(
            focus: focus, until: until, cause: cause, account: envelope.account, host: envelope.host, time: envelope.time
        )
    }

    package init(focus: String?, until: Date?, cause: String?, account: String, host: String, time: HybridTimestamp) {
        self.focus = focus
        self.until = until
        self.cause = cause
        self.account = account
        self.host = host
        self.time = time
    }

    /// The payload, compact JSON.
    package func encoded() -> [UInt8] {
        let object: JSONObject = [
            "focus": focus.map { .string($0) } ?? .null,
            "until": until.map { .string(RFC3339.format($0)) } ?? .null,
            "cause": cause.map { .string($0) } ?? .null,
            "account": .string(account),
            "host": .string(host),
            "hlc": time.json,
        ]
        return Self.payload(object)
    }
}

/// A change one of the person's hosts made, as a message carries it.
package protocol SyncMessage {
    var account: String { get }
    var host: String { get }
    var time: HybridTimestamp { get }
}

extension SyncMessage {
    /// Whether this change wins over the one in effect: later by the hybrid clock, the
    /// host's name deciding between equal times.
    package func isNewer(than time: HybridTimestamp, host: String) -> Bool {
        (self.time, self.host) > (time, host)
    }

    /// `object` as a payload: compact JSON.
    static func payload(_ object: JSONObject) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONValue.object(object).write(to: &bytes)
        return bytes
    }
}

extension FocusMessage {
    /// What every message of herald-sync's carries: whose, from which host, and when.
    package struct Envelope {
        package var account: String
        package var host: String
        package var time: HybridTimestamp

        /// Reads `account`, `host` and `hlc` from a payload's object.
        package init(_ object: JSONObject) throws(Refusal) {
            guard case .string(let account) = object["account"], !account.isEmpty, account.utf8.count <= 255 else {
                throw Refusal(description: "/account must be a string of 1 to 255 bytes")
            }
            guard case .string(let host) = object["host"], !host.isEmpty, host.utf8.count <= 255 else {
                throw Refusal(description: "/host must be a string of 1 to 255 bytes")
            }
            guard let clock = object["hlc"]?.objectValue, clock.count == 2,
                let milliseconds = clock["ms"]?.numberValue.flatMap({ Int64($0.literal) }), milliseconds >= 0,
                let counter = clock["counter"]?.numberValue.flatMap({ Int64($0.literal) }), counter >= 0
            else { throw Refusal(description: "/hlc must be {\"ms\": n, \"counter\": n}, whole numbers from 0") }
            self.account = account
            self.host = host
            time = HybridTimestamp(milliseconds: milliseconds, counter: counter)
        }
    }
}

extension HybridTimestamp {
    /// `{"ms": …, "counter": …}`, as the messages carry it.
    package var json: JSONValue {
        .object(["ms": .number(JSONNumber(literal: String(milliseconds))), "counter": .number(JSONNumber(literal: String(counter)))])
    }
}

/// A person's Focus as herald-sync compares it: its name and its end, or off.
package struct FocusState: Equatable, Sendable {
    package var focus: String?
    package var until: Date?

    package init(focus: String?, until: Date?) {
        self.focus = focus
        self.until = until
    }

    package static let off = FocusState(focus: nil, until: nil)
}
