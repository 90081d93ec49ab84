import HeraldBus
import HeraldDesktop

/// xdg-desktop-portal's Notification backend, `org.freedesktop.impl.portal.Notification`
/// (version 2), named `org.freedesktop.impl.portal.desktop.herald` (`herald.portal`):
/// a sandboxed app's `AddNotification` reaches Herald through the portal, which has
/// already verified the app's id.
///
/// Only the portal (the owner of `org.freedesktop.portal.Desktop`) is answered: another
/// caller could name any app id.
final class PortalBackend {
    static let busName = "org.freedesktop.impl.portal.desktop.herald"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.impl.portal.Notification"
    static let portalName = "org.freedesktop.portal.Desktop"
    static let version: UInt32 = 2

    let bus: SessionBus
    let gateway: NotificationGateway
    /// Herald's backend name, waited for in the bus's queue while another Herald's gateway
    /// owns it: when that one goes, this one serves the portal as it serves the gateway.
    let queuedName: QueuedName

    init(bus: SessionBus, gateway: NotificationGateway) {
        self.bus = bus
        self.gateway = gateway
        queuedName = QueuedName(Self.busName, on: bus)
        queuedName.serve = { [unowned self] () throws(BusError) in try serve() }
    }

    /// Asks for the backend's name in the bus's queue, and serves it once the bus gives it.
    func start() throws(BusError) {
        guard let owner = try queuedName.claim() else { return }
        Log.info(
            "\(Self.busName) is owned by \(owner): another Herald serves the portal; this one waits in the bus's queue and "
                + "serves it when that one leaves"
        )
    }

    /// Installs the backend's handler, once: when the bus first gives it the name.
    private func serve() throws(BusError) {
        try bus.serve(pathsUnder: Self.path) { [unowned self] call in handle(call) }
        gateway.portalAction = { [unowned self] origin, action, reply in actionInvoked(origin, action: action, reply: reply) }
        Log.info("serving \(Self.interface) as \(Self.busName) for xdg-desktop-portal")
    }

    private func handle(_ call: BusMessage) -> Bool {
        guard call.isMethodCall, call.path == Self.path else { return false }
        do throws(BusError) {
            switch (call.interface, call.member) {
            case (Self.interface, "AddNotification"):
                try checkPortal(call)
                try add(call)
            case (Self.interface, "RemoveNotification"):
                try checkPortal(call)
                let app = try call.readString()
                let id = try call.readString()
                gateway.removePortal(app: Self.app(app), portalApp: app, portalID: id)
                try bus.reply(to: call)
            case ("org.freedesktop.DBus.Properties", "Get"):
                let interface = try call.readString()
                let name = try call.readString()
                guard interface == Self.interface, let value = Self.properties[name] else {
                    throw BusError(name: "org.freedesktop.DBus.Error.UnknownProperty", errno: 0, message: "no property \(interface).\(name)")
                }
                try bus.reply(to: call) { reply throws(BusError) in try reply.append(value) }
            case ("org.freedesktop.DBus.Properties", "GetAll"):
                let interface = try call.readString()
                try bus.reply(to: call) { reply throws(BusError) in
                    try reply.append(interface == Self.interface ? Self.properties.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) } : [])
                }
            default:
                return false
            }
        } catch {
            try? bus.replyError(to: call, name: error.name ?? "org.freedesktop.DBus.Error.InvalidArgs", message: error.message)
        }
        return true
    }

    /// The interface's properties: its version and what it supports.
    static var properties: [String: BusValue] {
        ["version": .uint32(version), "SupportedOptions": .dictionary(supportedOptions)]
    }

    /// Refuses every caller but the portal itself.
    private func checkPortal(_ call: BusMessage) throws(BusError) {
        guard let sender = call.sender, let portal = try bus.nameOwner(Self.portalName), sender == portal else {
            throw BusError(
                name: "org.freedesktop.DBus.Error.AccessDenied", errno: 0,
                message: "\(Self.interface) answers only xdg-desktop-portal (\(Self.portalName))"
            )
        }
    }

    /// The Herald app of a portal app id: the id itself, verified by the portal; a host
    /// app (an empty id) is `unknown`, unverified.
    static func app(_ portalApp: String) -> String {
        FreedesktopNotification.validAppName(portalApp)
    }

    private func add(_ call: BusMessage) throws(BusError) {
        let app = try call.readString()
        let id = try call.readString()
        // Version 2's icons come as a memfd: its bytes are read with the call.
        let fields = try call.readDictionary(byteLimit: NotificationGateway.maximumImageBytes, readsDescriptors: true)
        try bus.reply(to: call)
        gateway.passPortal(
            app: Self.app(app), origin: GatewayRecords.PortalOrigin(
                app: app, id: id, defaultAction: fields["default-action"]?.stringValue,
                replyAction: Self.buttons(fields).first { $0.purpose == Self.replyPurpose }?.action, targets: Self.targets(fields),
                icon: Self.bytesIcon(fields["icon"])
            ),
            notification: Self.notification(app: app, fields), verifiedBy: app.isEmpty ? nil : "portal"
        )
    }

    /// The portal's notification as a freedesktop one: `title` the summary, `markup-body`
    /// (or `body`, escaped) the body, `priority` the urgency (urgent → critical, which
    /// Herald still treats as time-sensitive), the default action and buttons the actions
    /// (an `im.reply-with-text` button the renderer's inline reply), a themed icon the app
    /// icon, `category` kept. Version 2's `display-hint`: `transient` and `persistent` as
    /// the hints of those names (`resident`), `tray` (no banner) as low urgency, which
    /// Herald delivers quietly into the list; the lock-screen hints and `show-as-new` have
    /// no meaning here. Its `sound`: `silent` suppresses the sound; a sound file is not
    /// played (Herald decides whether a notification sounds, and with the renderer's sound).
    static func notification(app: String, _ fields: [BusEntry]) -> FreedesktopNotification {
        let displayHints = Set(fields["display-hint"]?.innermost.stringsValue ?? [])
        var urgency: UInt8
        switch fields["priority"]?.stringValue {
        case "low": urgency = 0
        case "urgent": urgency = 2
        default: urgency = 1
        }
        if displayHints.contains("tray"), urgency < 2 { urgency = 0 }
        var hints = [BusEntry(key: "urgency", value: .byte(urgency))]
        if let category = fields["category"]?.stringValue { hints.append(BusEntry(key: "category", value: .string(category))) }
        if !app.isEmpty { hints.append(BusEntry(key: "desktop-entry", value: .string(app))) }
        if displayHints.contains("transient") { hints.append(BusEntry(key: "transient", value: .boolean(true))) }
        if displayHints.contains("persistent") { hints.append(BusEntry(key: "resident", value: .boolean(true))) }
        if fields["sound"]?.innermost.stringValue == "silent" { hints.append(BusEntry(key: "suppress-sound", value: .boolean(true))) }
        var actions: [String] = []
        // The default action is the renderer's `default` (a click on the bubble), named back
        // to the portal as the app named it (``actionInvoked(_:action:reply:)``).
        if fields["default-action"]?.stringValue != nil { actions += [NotificationMapping.defaultActionKey, "Open"] }
        for button in Self.buttons(fields) {
            if button.purpose == Self.replyPurpose {
                actions += [NotificationMapping.inlineReplyKey, button.label ?? "Reply"]
            } else if let label = button.label ?? button.purpose.flatMap({ Self.purposeLabels[$0] }) {
                actions += [button.action, label]
            }
        }
        return FreedesktopNotification(
            appName: app, appIcon: Self.themedIcon(fields["icon"]) ?? "", summary: fields["title"]?.stringValue ?? "",
            body: fields["markup-body"]?.stringValue ?? BodyMarkup.escape(fields["body"]?.stringValue ?? ""), actions: actions,
            hints: hints
        )
    }

    /// The button purpose of an inline reply (category `im.received`).
    static let replyPurpose = "im.reply-with-text"

    /// The labels of the purposes Herald understands, for a button that gives none.
    static let purposeLabels = [
        "call.accept": "Accept", "call.decline": "Decline", "call.hang-up": "Hang up",
        "call.enable-speakerphone": "Speaker on", "call.disable-speakerphone": "Speaker off",
    ]

    /// What `SupportedOptions` advertises: the categories Herald makes messages and calls
    /// of, and the button purposes it shows.
    static var supportedOptions: [BusEntry] {
        [
            BusEntry(key: "category", value: .variant(.array(element: "s", ["im.received", "call.incoming", "call.ongoing", "call.unanswered"].map(BusValue.string)))),
            BusEntry(key: "button-purpose", value: .variant(.array(element: "s", ([replyPurpose] + purposeLabels.keys.sorted()).map(BusValue.string)))),
        ]
    }

    /// A notification's buttons: each with an action (those without are ignored).
    static func buttons(_ fields: [BusEntry]) -> [(action: String, label: String?, purpose: String?, target: BusValue?)] {
        (fields["buttons"].map(Self.elements) ?? []).compactMap { element in
            guard case .dictionary(let button) = element.innermost, let action = button["action"]?.stringValue else { return nil }
            return (action, button["label"]?.stringValue, button["purpose"]?.stringValue, button["target"])
        }
    }

    /// Each action's target, by its key on the renderer: `default-action-target` for the
    /// default action, each button's `target` (an inline reply's under the renderer's key).
    static func targets(_ fields: [BusEntry]) -> [String: BusValue] {
        var targets: [String: BusValue] = [:]
        if let target = fields["default-action-target"] { targets[NotificationMapping.defaultActionKey] = target }
        for button in Self.buttons(fields) {
            guard let target = button.target else { continue }
            targets[button.purpose == Self.replyPurpose ? NotificationMapping.inlineReplyKey : button.action] = target
        }
        return targets.filter { $0.value.isWhole }
    }

    /// A serialized `GIcon` of the themed kind, `("themed", <["name", …]>)`: its first name.
    private static func themedIcon(_ value: BusValue?) -> String? {
        guard case .structure(let fields)? = value?.innermost, fields.count == 2, fields[0].stringValue == "themed" else { return nil }
        return fields[1].innermost.stringsValue?.first
    }

    /// A serialized icon of the bytes kind, `("bytes", <ay>)`, as Debian's portal (1.16)
    /// passes an app's bytes and file icons, or of version 2's `("file-descriptor", <h>)`,
    /// a sealed memfd holding them: an image, when its bytes show which.
    static func bytesIcon(_ value: BusValue?) -> ImageSource? {
        guard case .structure(let fields)? = value?.innermost, fields.count == 2 else { return nil }
        switch (fields[0].stringValue, fields[1].innermost) {
        case ("bytes", .bytes(let bytes)): return ImageSource.sniffed(bytes)
        case ("file-descriptor", .fileDescriptor(let descriptor)): return descriptor.contents.flatMap(ImageSource.sniffed)
        default: return nil
        }
    }

    private static func elements(_ value: BusValue) -> [BusValue] {
        if case .array(_, let values) = value.innermost { return values }
        return []
    }

    /// A person acted on a portal notification: the portal alone hears `ActionInvoked`, the
    /// action as the app named it, with its parameter as version 2 orders it: the action's
    /// target when it had one; then, for an inline reply, the platform data (none) and the
    /// typed text.
    private func actionInvoked(_ origin: GatewayRecords.PortalOrigin, action: String, reply: String?) {
        guard let portal = try? bus.nameOwner(Self.portalName) else {
            return Log.info("an action on a notification of \(origin.app) found no portal to answer")
        }
        var parameter = origin.targets[action].map { [BusValue.variant($0)] } ?? []
        if let reply { parameter += [.variant(.dictionary([])), .variant(.string(reply))] }
        let name: String
        switch action {
        case NotificationMapping.defaultActionKey: name = origin.defaultAction ?? action
        case NotificationMapping.inlineReplyKey: name = origin.replyAction ?? action
        default: name = action
        }
        do {
            try bus.emitSignal(path: Self.path, interface: Self.interface, member: "ActionInvoked", to: portal) { m throws(BusError) in
                try m.append(origin.app)
                try m.append(origin.id)
                try m.append(name)
                try m.appendValue(.array(element: "v", parameter))
            }
        } catch {
            Log.info("ActionInvoked for \(origin.app) was not sent to the portal: \(error)")
        }
    }
}
