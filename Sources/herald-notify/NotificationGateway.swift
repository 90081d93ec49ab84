import HeraldBus
import HeraldDesktop
import HeraldProcessIdentity
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `org.freedesktop.Notifications` on the person's session bus, served by Herald: each
/// app's `Notify` becomes a Herald notification (``FreedesktopNotification``), decided by
/// heraldd and shown by the renderer (dunst, mako …) that runs on a private bus of
/// Herald's; answers go back to the app that asked, and only to it.
///
/// What is not the Notifications interface (`dunstctl`'s `org.dunstproject.cmd0`,
/// `makoctl`'s `/fr/emersion/Mako`, properties, introspection) is forwarded to the
/// renderer as it is, and the renderer's own broadcast signals (dunst's `PropertiesChanged`
/// of `paused`, which status bars follow) come back on the person's bus, so the renderer's
/// own tools keep working.
final class NotificationGateway {
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// The Notify hints' largest image kept (`image-data`'s pixels); a larger one is not shown.
    static let maximumImageBytes = 16 << 20
    /// What Herald passes on of the renderer's capabilities: the rest it cannot honour
    /// (KDE's `inline-reply` comes back by a signal of the renderer's).
    static let passedCapabilities: Set<String> = [
        "actions", "action-icons", "body", "body-hyperlinks", "body-images", "body-markup", "icon-multi", "icon-static",
        "inline-reply", "persistence", "sound",
    ]

    let bus: SessionBus
    let renderer: DesktopNotifications
    /// `org.freedesktop.Notifications`, waited for in the bus's queue while another owns it.
    let queuedName: QueuedName
    /// Each calling connection's app, by its unique name: read from its process once.
    private var callers: [String: BusCaller] = [:]
    static let maximumCallers = 1024
    let presenter: DesktopPresenter
    var records = GatewayRecords()
    /// A prefix of this run's identifiers in heraldd's list: a restarted gateway's ids
    /// start again at 1 and must not replace the last run's notifications.
    let runPrefix: String
    private let uid = getuid()
    /// Tokens (`ActivationToken`) the renderer sent for a notification's bubble, until its action.
    var tokens: [NotificationKey: String] = [:]

    /// Passes a notification to heraldd; false when heraldd is not there (then the gateway
    /// shows it directly).
    var submit: (GatewayRecords.Record) -> Bool = { _ in false }
    /// Takes a notification out of heraldd's list (`CloseNotification`).
    var withdraw: (GatewayRecords.Record) -> Void = { _ in }
    /// Whether heraldd was unreachable for a notification since it was last reached: the
    /// person is told once per outage.
    var toldOfOutage = false
    /// Apps' answers to `Notify` waiting for heraldd's decision.
    private(set) var heldReplies = HeldReplies()
    /// Notifications on their way to the renderer while heraldd is away: as many may wait
    /// as the gateway keeps records of. A `Notify` unanswered past the renderer's call
    /// timeout is late: the next go, and its answer is still waited for
    /// (``DesktopNotifications/lateAnswerTimeout``); a renderer that hangs is left at most
    /// ``DirectBubbles/maximumUnanswered`` calls unanswered, each for that long.
    var direct: DirectBubbles
    /// Whether late answers were logged in this outage of heraldd's.
    var toldOfLateAnswers = false

    init(bus: SessionBus, renderer: DesktopNotifications, presenter: DesktopPresenter) {
        self.bus = bus
        self.renderer = renderer
        self.presenter = presenter
        direct = DirectBubbles(
            maximumWaiting: GatewayRecords.maximumRecords, maximumWaitingImageBytes: GatewayRecords.maximumImageBytes,
            lateAfter: renderer.bus.callTimeout
        )
        queuedName = QueuedName(Self.interface, on: bus)
        runPrefix = "fdo-" + String(UInt32.random(in: 1...UInt32.max), radix: 16) + "-"
        queuedName.serve = { [unowned self] () throws(BusError) in try serve() }
    }

    /// Asks for `org.freedesktop.Notifications` in the bus's queue, and serves it once the
    /// bus gives it: at once when nobody owns it, else when its owner leaves (a renderer
    /// started before Herald's gateway, exiting). An owner is never replaced: a desktop's
    /// shell (GNOME Shell, KDE Plasma) keeps it. Returns whether it serves now.
    func start() throws(BusError) -> Bool {
        guard let owner = try queuedName.claim() else { return true }
        Log.info(
            "\(Self.interface) is owned by \(owner) on the session bus: Herald's gateway waits in the bus's queue and serves it "
                + "when that owner lets it go (a notification server started before Herald does when it exits; GNOME Shell and KDE "
                + "Plasma keep it); until then apps' notifications go there, without Herald's Focus; see docs/operations.md"
        )
        return false
    }

    /// Installs the gateway's handlers and the renderer's signals, once: when the bus first
    /// gives it the name.
    private func serve() throws(BusError) {
        try bus.serve(pathsUnder: "/") { [unowned self] call in handle(call) }
        try renderer.onActivationToken { [unowned self] id, token in
            if let gatewayID = records.id(forDirect: id) { return emitToken(token, for: gatewayID) }
            guard let key = presenter.notificationKey(forServerID: id), owns(key) else { return }
            if tokens.count >= 256 { tokens.removeAll() }
            tokens[key] = token
        }
        try renderer.onActionInvoked { [unowned self] id, key in
            guard let gatewayID = records.id(forDirect: id), let record = records[gatewayID] else { return }
            emitAction(key, for: record, reply: nil)
        }
        try renderer.onNotificationReplied { [unowned self] id, text in
            guard let gatewayID = records.id(forDirect: id), let record = records[gatewayID], record.portal == nil else { return }
            emitReply(text, for: record)
        }
        try renderer.onNotificationClosed { [unowned self] id, reason in
            guard let gatewayID = records.id(forDirect: id), let record = records[gatewayID] else { return }
            emitClosed(record, reason: reason)
            records.setDirectID(nil, of: gatewayID)
        }
        // The renderer's other signals, as it would have sent them on the person's bus. Those
        // of the Notifications interface name the renderer's ids: answered above, per app.
        try renderer.bus.addMatch("type='signal',sender='\(DesktopNotifications.busName)'") { [bus] signal in
            guard signal.interface != Self.interface, signal.destination == nil else { return }
            do {
                try bus.emitCopy(of: signal)
            } catch {
                Log.info("could not pass on the renderer's signal \(signal.interface ?? "").\(signal.member ?? ""): \(error)")
            }
        }
        Log.info("serving \(Self.interface) on the session bus as Herald's gateway; the renderer runs on its own bus")
    }

    // MARK: Calls

    private func handle(_ call: BusMessage) -> Bool {
        guard call.isMethodCall else { return false }
        if call.interface == Self.interface, call.path == Self.path {
            do {
                switch call.member {
                case "Notify": try notify(call)
                case "CloseNotification": try closeNotification(call)
                case "GetCapabilities": try bus.reply(to: call) { reply throws(BusError) in try reply.append(capabilities) }
                case "GetServerInformation":
                    try bus.reply(to: call) { reply throws(BusError) in
                        try reply.append("Herald")
                        try reply.append("Herald")
                        try reply.append(HeraldVersion.string)
                        try reply.append("1.2")
                    }
                default:
                    try bus.replyError(
                        to: call, name: "org.freedesktop.DBus.Error.UnknownMethod",
                        message: "\(Self.interface) has no method \(call.member ?? "")"
                    )
                }
            } catch {
                try? bus.replyError(to: call, name: error.name ?? "org.freedesktop.DBus.Error.InvalidArgs", message: error.message)
            }
            return true
        }
        if call.path == Self.path, call.interface == "org.freedesktop.DBus.Introspectable", call.member == "Introspect" {
            try? bus.reply(to: call) { reply throws(BusError) in try reply.append(Self.introspection) }
            return true
        }
        forward(call)
        return true
    }

    /// The Notifications interface as the specification gives it, for clients that read it
    /// before calling (gdbus, GDBusProxy): answered by Herald to every caller, so that a
    /// sandboxed app, whose calls to the renderer's own interfaces are refused, still can.
    static let introspection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.freedesktop.Notifications">
            <method name="Notify">
              <arg name="app_name" type="s" direction="in"/><arg name="replaces_id" type="u" direction="in"/>
              <arg name="app_icon" type="s" direction="in"/><arg name="summary" type="s" direction="in"/>
              <arg name="body" type="s" direction="in"/><arg name="actions" type="as" direction="in"/>
              <arg name="hints" type="a{sv}" direction="in"/><arg name="expire_timeout" type="i" direction="in"/>
              <arg name="id" type="u" direction="out"/>
            </method>
            <method name="CloseNotification"><arg name="id" type="u" direction="in"/></method>
            <method name="GetCapabilities"><arg name="capabilities" type="as" direction="out"/></method>
            <method name="GetServerInformation">
              <arg name="name" type="s" direction="out"/><arg name="vendor" type="s" direction="out"/>
              <arg name="version" type="s" direction="out"/><arg name="spec_version" type="s" direction="out"/>
            </method>
            <signal name="NotificationClosed"><arg name="id" type="u"/><arg name="reason" type="u"/></signal>
            <signal name="ActionInvoked"><arg name="id" type="u"/><arg name="action_key" type="s"/></signal>
            <signal name="ActivationToken"><arg name="id" type="u"/><arg name="activation_token" type="s"/></signal>
            <signal name="NotificationReplied"><arg name="id" type="u"/><arg name="text" type="s"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
          </interface>
        </node>
        """

    /// The renderer's capabilities that Herald honours.
    var capabilities: [String] {
        presenter.serverCapabilities.names.filter(Self.passedCapabilities.contains).sorted()
    }

    private func notify(_ call: BusMessage) throws(BusError) {
        guard call.signature == "susssasa{sv}i" else {
            return try bus.replyError(
                to: call, name: "org.freedesktop.DBus.Error.InvalidArgs",
                message: "Notify takes (susssasa{sv}i), not (\(call.signature))"
            )
        }
        var notification = FreedesktopNotification(
            appName: try call.readString(), replacesID: try call.readUInt32(), appIcon: try call.readString(),
            summary: try call.readString(), body: try call.readString(), actions: try call.readStrings(),
            hints: try call.readDictionary(byteLimit: Self.maximumImageBytes), expireTimeout: try call.readInt32()
        )
        guard notification.actionsArePaired else {
            return try bus.replyError(
                to: call, name: "org.freedesktop.DBus.Error.InvalidArgs",
                message: "Notify's actions are pairs of an action key and its label; \(notification.actions.count) strings were sent"
            )
        }
        guard let sender = call.sender else {
            return try bus.replyError(to: call, name: "org.freedesktop.DBus.Error.AccessDenied", message: "a call without a sender")
        }
        guard let verified = try identify(call) else { return }
        let partial = notification.hints.filter { !$0.value.isWhole }.map(\.key)
        if !partial.isEmpty {
            notification.hints.removeAll { !$0.value.isWhole }
            Log.info("hints not passed on (an image over \(Self.maximumImageBytes) bytes, or a file descriptor): \(partial.joined(separator: ", "))")
        }
        let app = notification.app(verified: verified.app)
        // Its own app's earlier notification is replaced (`notify-send -r` is a new
        // connection each time); another app's id is no id of its own: a new notification.
        let existing = notification.replacesID == 0 ? nil : records[notification.replacesID].flatMap { $0.app == app ? $0 : nil }
        let id = existing?.id ?? records.newID()
        let record = GatewayRecords.Record(
            id: id, sender: sender, app: app, verifiedBy: verified.verifiedBy,
            identifier: existing?.identifier ?? runPrefix + String(id), notification: notification, directID: existing?.directID
        )
        records.insert(record)
        let reply = try bus.replyMessage(to: call) { reply throws(BusError) in try reply.append(id) }
        // On its way first, answered once heraldd has decided (``HeldReplies``): the app's
        // answer is not on the bubble's path.
        if pass(record) {
            sendHeld(heldReplies.hold(reply, for: id))
        } else {
            try bus.send(reply)
        }
    }

    /// Hands `record` to heraldd (true), or shows it directly while heraldd is not there.
    @discardableResult
    func pass(_ record: GatewayRecords.Record) -> Bool {
        if submit(record) { return true }
        showDirectly(record.id)
        return false
    }

    /// heraldd answered `update-content` for notification `id` (its bubble, when it has
    /// one, is on its way to the renderer already): the app gets its answer.
    func decided(_ id: UInt32) {
        sendHeld(heldReplies.release(id))
    }

    /// Sends the answers held past their time, or all of them (heraldd is gone).
    func sendHeldReplies(all: Bool = false) {
        sendHeld(all ? heldReplies.releaseAll() : heldReplies.releaseDue())
    }

    private func sendHeld(_ replies: [BusMessage]) {
        for reply in replies {
            do {
                try bus.send(reply)
            } catch {
                Log.info("an app's answer to Notify was not sent: \(error)")
            }
        }
    }

    /// The sender's verified app (nil: an unconfined process of the person's), or nil
    /// after replying with an error when it cannot be identified.
    private func identify(_ call: BusMessage) throws(BusError) -> BusCaller? {
        // A connection is one process's for its life (a child that inherits it inherits
        // its sandbox too), and the bus never gives its unique name to another.
        if let sender = call.sender, let known = callers[sender] { return known }
        let (pid, senderUID) = try bus.senderCredentials(of: call)
        guard senderUID == uid else {
            try bus.replyError(
                to: call, name: "org.freedesktop.DBus.Error.AccessDenied", message: "Herald's gateway takes notifications of its own user only"
            )
            return nil
        }
        let caller: BusCaller
        switch ProcessIdentity.app(pidfd: nil, pid: pid) {
        case .verified(let app): caller = BusCaller(app: app.id, verifiedBy: app.source.rawValue)
        case .unconfined: caller = BusCaller(app: nil, verifiedBy: nil)
        case .unconfirmed:
            try bus.replyError(
                to: call, name: "org.freedesktop.DBus.Error.AccessDenied",
                message: "the sending process exited, or its pid changed hands, before it could be identified"
            )
            return nil
        }
        if let sender = call.sender {
            if callers.count >= Self.maximumCallers { callers.removeAll() }
            callers[sender] = caller
        }
        return caller
    }

    private func closeNotification(_ call: BusMessage) throws(BusError) {
        let id = try call.readUInt32()
        guard let caller = try identify(call) else { return }
        // A verified app closes its own app's notifications only; another's id, like an
        // unknown one, closes nothing and says nothing of it. The person's own processes
        // (unconfined) close any of theirs, as on heraldd's socket.
        guard let record = records[id], caller.app == nil || caller.app == record.app, record.portal == nil else {
            return try bus.reply(to: call)
        }
        try bus.reply(to: call)
        records.remove(id)
        closeDirectly(record)
        withdraw(record)
        emitClosed(record, reason: .closedByCall)
    }

    /// A call for the renderer's own interfaces, passed to it and its answer passed back.
    /// A sandboxed app (Flatpak, Snap) is refused: `dunstctl history` would show it every
    /// other app's notifications. The person's own tools run unconfined, or in an app's unit.
    private func forward(_ call: BusMessage) {
        do {
            guard let caller = try identify(call) else { return }
            if let source = caller.verifiedBy, source == "flatpak" || source == "snap" {
                return try bus.replyError(
                    to: call, name: "org.freedesktop.DBus.Error.AccessDenied",
                    message: "the renderer's own interfaces (\(call.interface ?? "")) are the person's, not app \(caller.app ?? "")'s"
                )
            }
            let forwarded = try renderer.bus.forwardedCall(of: call, to: DesktopNotifications.busName)
            try renderer.bus.callAsync(forwarded) { [bus] answer in try? bus.relay(answer, to: call) }
        } catch {
            try? bus.replyError(to: call, name: error.name ?? "org.freedesktop.DBus.Error.Failed", message: error.message)
        }
    }

    /// Sends a portal notification's action, with the text of an inline reply, to the
    /// portal (``PortalBackend``).
    var portalAction: ((GatewayRecords.PortalOrigin, String, String?) -> Void)?
}

/// Who called the gateway: the verified app of the sending process, or nil for an
/// unconfined process of the person's.
struct BusCaller {
    var app: String?
    /// `flatpak`, `snap` or `systemd-unit`, with `app`.
    var verifiedBy: String?
}
