import HeraldBus
import HeraldProtocol

/// One `org.freedesktop.Notifications.Notify` call as an app made it, and what Herald
/// makes of it: the app it speaks for, the content heraldd decides on, and for a message
/// or a call the interaction donated first. The table is in docs/operations.md
/// ("Your desktop's notifications").
package struct FreedesktopNotification: Sendable, Hashable {
    package var appName: String
    /// The gateway's own id of the notification this one replaces; 0 for none.
    package var replacesID: UInt32
    package var appIcon: String
    package var summary: String
    /// The body as sent, with the specification's markup.
    package var body: String
    /// Pairs of (action key, label).
    package var actions: [String]
    package var hints: [BusEntry]
    package var expireTimeout: Int32

    package init(
        appName: String, replacesID: UInt32 = 0, appIcon: String = "", summary: String, body: String = "", actions: [String] = [],
        hints: [BusEntry] = [], expireTimeout: Int32 = -1
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }

    /// The longest title or body heraldd is given, in UTF-8 bytes (well under its
    /// `--max-string-bytes`); the renderer still gets the whole text.
    package static let maximumTextBytes = 4096

    /// What the notification is, from its `category` hint: `im.*` (and the portal's
    /// `im.received`) a message, `call.*` (and `x-herald.call`) a call.
    package enum Kind: Sendable, Hashable {
        case message
        case call
        case other
    }

    package var kind: Kind {
        guard let category = hints["category"]?.stringValue else { return .other }
        if category.hasPrefix("im.") || category == "im" { return .message }
        if category.hasPrefix("call.") || category == "x-herald.call" { return .call }
        return .other
    }

    /// `urgency`: 0 low, 1 normal (also when absent or out of range), 2 critical.
    package var urgency: UInt8 {
        guard let value = hints["urgency"]?.integerValue, (0...2).contains(value) else { return 1 }
        return UInt8(value)
    }

    /// Low is passive, normal active, critical time-sensitive — never `critical`: any
    /// process on the bus can set urgency 2, and Herald's critical breaks through every
    /// Focus on an administrator's grant alone. Time-sensitive breaks through only a Focus
    /// that allows it, and only while the app keeps that capability.
    package var interruptionLevel: InterruptionLevel {
        switch urgency {
        case 0: .passive
        case 2: .timeSensitive
        default: .active
        }
    }

    /// The `desktop-entry` hint, when it is a valid app id.
    package var desktopEntry: String? {
        guard let entry = hints["desktop-entry"]?.stringValue, Self.isAppID(entry) else { return nil }
        return entry
    }

    package var suppressesSound: Bool { hints["suppress-sound"]?.boolValue == true }

    /// Whether the action list is pairs, as the specification requires.
    package var actionsArePaired: Bool { actions.count % 2 == 0 }

    /// The app it speaks for: the verified app of its process when there is one (a hint
    /// cannot change it), else the `desktop-entry` hint, else `app_name` made a valid app
    /// name (each other character `-`), else `unknown`.
    package func app(verified: String?) -> String {
        verified ?? desktopEntry ?? Self.validAppName(appName)
    }

    /// `name` as a valid app name: each other character `-`, at most 255; `unknown` for none.
    package static func validAppName(_ name: String) -> String {
        let valid = String(decoding: name.utf8.prefix(255).map { isAppByte($0) ? $0 : UInt8(ascii: "-") }, as: UTF8.self)
        return valid.isEmpty ? "unknown" : valid
    }

    /// `update-content`'s content: the summary as title, the body without markup, the
    /// urgency's interruption level; the sound left to the server unless suppressed.
    package var content: JSONObject {
        var content = JSONObject()
        let title = Self.clipped(summary.isEmpty ? appName : summary)
        if !title.isEmpty { content["title"] = .string(title) }
        let text = Self.clipped(BodyMarkup.plainText(body))
        if !text.isEmpty { content["body"] = .string(text) }
        content["interruptionLevel"] = .string(interruptionLevel.rawValue)
        if !suppressesSound { content["sound"] = .string(hints["sound-name"]?.stringValue ?? "default") }
        return content
    }

    /// `donate`'s params for a message or a call, so that heraldd shows who it is from and
    /// a Focus that allows an app's calls or messages applies: the summary is the sender's
    /// name (as messengers send it), the conversation one per (app, sender), named by a
    /// digest so that the journal never carries the name. Nil for anything else.
    package func donateParams(app: String, identifier: String) -> JSONObject? {
        let sender: JSONValue = .object(["displayName": .string(Self.clipped(summary.isEmpty ? appName : summary))])
        let intent: JSONObject
        switch kind {
        case .message:
            intent = [
                "type": .string("sendMessage"), "sender": sender,
                "conversationIdentifier": .string("fdo-" + Self.digest(summary)),
            ]
        case .call:
            intent = ["type": .string("startCall"), "contacts": .array([sender])]
        case .other:
            return nil
        }
        return [
            "app": .string(app),
            "interaction": .object(["identifier": .string(identifier), "direction": .string("incoming"), "intent": .object(intent)]),
        ]
    }

    /// `update-content`'s params: `interaction` names the donated interaction; `gateway`
    /// and `verifiedBy` say which gateway passed it on and what verified the app.
    package func updateParams(app: String, identifier: String, interaction: Bool, gateway: String, verifiedBy: String?) -> JSONObject {
        var params: JSONObject = ["app": .string(app), "identifier": .string(identifier), "content": .object(content)]
        if interaction { params["interactionIdentifier"] = .string(identifier) }
        var via: JSONObject = ["name": .string(gateway)]
        if let verifiedBy { via["appVerifiedBy"] = .string(verifiedBy) }
        params["gateway"] = .object(via)
        return params
    }

    /// At most ``maximumTextBytes`` of `text`, cut at a character.
    static func clipped(_ text: String) -> String {
        guard text.utf8.count > maximumTextBytes else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maximumTextBytes)
        while end > text.startIndex, !text.indices.contains(end) { end = text.utf8.index(before: end) }
        return String(text[..<end])
    }

    /// A 64-bit FNV-1a digest in hex: a stable name that does not carry the text.
    package static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func isAppID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 255 && id.utf8.allSatisfy(isAppByte)
    }

    private static func isAppByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
