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

    init(bus: SessionBus, gateway: NotificationGateway) {
        self.bus = bus
        self.gateway = gateway
    }

    func start() throws(BusError) {
        if case .ownedBy(let owner) = try bus.requestName(Self.busName) {
            Log.info("\(Self.busName) is owned by \(owner): another Herald serves the portal; not serving it here")
            return
        }
        try bus.serve(pathsUnder: Self.path) { [unowned self] call in handle(call) }
        gateway.portalAction = { [unowned self] origin, action in actionInvoked(origin, action: action) }
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
                guard interface == Self.interface, name == "version" else {
                    throw BusError(name: "org.freedesktop.DBus.Error.UnknownProperty", errno: 0, message: "no property \(interface).\(name)")
                }
                try bus.reply(to: call) { reply throws(BusError) in try reply.append(BusValue.uint32(Self.version)) }
            case ("org.freedesktop.DBus.Properties", "GetAll"):
                let interface = try call.readString()
                try bus.reply(to: call) { reply throws(BusError) in
                    try reply.append(interface == Self.interface ? [(key: "version", value: BusValue.uint32(Self.version))] : [])
                }
            default:
                return false
            }
        } catch {
            try? bus.replyError(to: call, name: error.name ?? "org.freedesktop.DBus.Error.InvalidArgs", message: error.message)
        }
        return true
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
        let fields = try call.readDictionary(byteLimit: NotificationGateway.maximumImageBytes)
        try bus.reply(to: call)
        gateway.passPortal(
            app: Self.app(app), origin: GatewayRecords.PortalOrigin(
                app: app, id: id, defaultAction: fields["default-action"]?.stringValue, targets: Self.targets(fields)
            ),
            notification: Self.notification(app: app, fields), verifiedBy: app.isEmpty ? nil : "portal"
        )
    }

    /// The portal's notification as a freedesktop one: `title` the summary, `markup-body`
    /// (or `body`, escaped) the body, `priority` the urgency (urgent → critical, which
    /// Herald still treats as time-sensitive), the default action and buttons the actions,
    /// a themed icon the app icon, `category` kept.
    static func notification(app: String, _ fields: [BusEntry]) -> FreedesktopNotification {
        let urgency: UInt8
        switch fields["priority"]?.stringValue {
        case "low": urgency = 0
        case "urgent": urgency = 2
        default: urgency = 1
        }
        var hints = [BusEntry(key: "urgency", value: .byte(urgency))]
        if let category = fields["category"]?.stringValue { hints.append(BusEntry(key: "category", value: .string(category))) }
        if !app.isEmpty { hints.append(BusEntry(key: "desktop-entry", value: .string(app))) }
        var actions: [String] = []
        // The default action is the renderer's `default` (a click on the bubble), named back
        // to the portal as the app named it (``actionName(_:in:)``).
        if fields["default-action"]?.stringValue != nil { actions += [NotificationMapping.defaultActionKey, "Open"] }
        for case .dictionary(let button) in fields["buttons"].map(Self.elements) ?? [] {
            guard let action = button["action"]?.stringValue, let label = button["label"]?.stringValue else { continue }
            actions += [action, label]
        }
        return FreedesktopNotification(
            appName: app, appIcon: Self.themedIcon(fields["icon"]) ?? "", summary: fields["title"]?.stringValue ?? "",
            body: fields["markup-body"]?.stringValue ?? BodyMarkup.escape(fields["body"]?.stringValue ?? ""), actions: actions,
            hints: hints
        )
    }

    /// Each action's target, by its key on the renderer: `default-action-target` for the
    /// default action, each button's `target`.
    static func targets(_ fields: [BusEntry]) -> [String: BusValue] {
        var targets: [String: BusValue] = [:]
        if let target = fields["default-action-target"] { targets[NotificationMapping.defaultActionKey] = target }
        for case .dictionary(let button) in fields["buttons"].map(Self.elements) ?? [] {
            if let action = button["action"]?.stringValue, let target = button["target"] { targets[action] = target }
        }
        return targets.filter { $0.value.isWhole }
    }

    /// A serialized `GIcon` of the themed kind, `("themed", <["name", …]>)`: its first name.
    private static func themedIcon(_ value: BusValue?) -> String? {
        guard case .structure(let fields)? = value?.innermost, fields.count == 2, fields[0].stringValue == "themed" else { return nil }
        return fields[1].innermost.stringsValue?.first
    }

    private static func elements(_ value: BusValue) -> [BusValue] {
        if case .array(_, let values) = value.innermost { return values }
        return []
    }

    /// A person acted on a portal notification: the portal alone hears `ActionInvoked`,
    /// with the action's target as its parameter when it had one.
    private func actionInvoked(_ origin: GatewayRecords.PortalOrigin, action: String) {
        guard let portal = try? bus.nameOwner(Self.portalName) else {
            return Log.info("an action on a notification of \(origin.app) found no portal to answer")
        }
        let parameter = origin.targets[action].map { [BusValue.variant($0)] } ?? []
        let name = action == NotificationMapping.defaultActionKey ? origin.defaultAction ?? action : action
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
