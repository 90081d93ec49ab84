/// The notification server on the session bus, `org.freedesktop.Notifications`
/// (the Desktop Notifications specification 1.2): its methods, its two signals (and KDE's
/// `NotificationReplied`), and whether anyone owns the name.
package final class DesktopNotifications {
    package static let busName = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"

    package let bus: SessionBus

    package init(bus: SessionBus) {
        self.bus = bus
    }

    /// `GetServerInformation`: name, vendor, version, specification version.
    package struct ServerInformation: Sendable, Hashable {
        package var name: String
        package var vendor: String
        package var version: String
        package var specificationVersion: String
    }

    package func capabilities() throws(BusError) -> [String] {
        try bus.call(call("GetCapabilities")).readStrings()
    }

    package func serverInformation() throws(BusError) -> ServerInformation {
        let reply = try bus.call(call("GetServerInformation"))
        return ServerInformation(
            name: try reply.readString(),
            vendor: try reply.readString(),
            version: try reply.readString(),
            specificationVersion: try reply.readString()
        )
    }

    /// How long a `Notify` is waited for by a caller that takes the answers a server gives
    /// late, past the bus's call timeout: a bubble shown that late is still its sender's to
    /// replace and close.
    package static let lateAnswerTimeout: Duration = .seconds(300)

    /// `Notify`, not waited for: shows (or, with `replacesID`, updates) a bubble. `answer`
    /// gets the bubble's id, or the error (a timeout after
    /// `timeout`, by default the bus's ``SessionBus/callTimeout``), from the bus's
    /// ``SessionBus/processPending(while:)``.
    package func notify(
        _ arguments: NotifyArguments, timeout: Duration? = nil, answer: @escaping (Result<UInt32, BusError>) -> Void
    ) throws(BusError) {
        try bus.callAsync(notifyCall(arguments), timeout: timeout ?? bus.callTimeout) { reply in
            answer(reply.flatMap { message in Result { () throws(BusError) in try message.readUInt32() } })
        }
    }

    private func notifyCall(_ arguments: NotifyArguments) throws(BusError) -> BusMessage {
        let message = try call("Notify")
        try message.append(arguments.appName)
        try message.append(arguments.replacesID)
        try message.append(arguments.appIcon)
        try message.append(arguments.summary)
        try message.append(arguments.body)
        try message.append(arguments.actions)
        try message.append(arguments.hints)
        try message.append(arguments.expireTimeout)
        return message
    }

    /// `CloseNotification`, not waited for: the server closes the bubble and sends
    /// `NotificationClosed`. `answer` gets its end from the bus's
    /// ``SessionBus/processPending(while:)``.
    package func close(_ id: UInt32, answer: @escaping (Result<Void, BusError>) -> Void) {
        do {
            let message = try call("CloseNotification")
            try message.append(id)
            try bus.callAsync(message, timeout: bus.callTimeout) { reply in answer(reply.map { _ in () }) }
        } catch {
            answer(.failure(error))
        }
    }

    /// Whether a server owns the name now, or the bus can start one (D-Bus activation).
    package func serverIsAvailable() throws(BusError) -> Bool {
        let hasOwner = try busCall("NameHasOwner")
        try hasOwner.append(Self.busName)
        if try bus.call(hasOwner).readBool() { return true }
        return try bus.call(try busCall("ListActivatableNames")).readStrings().contains(Self.busName)
    }

    /// `handler(id, actionKey)` for each `ActionInvoked`.
    package func onActionInvoked(_ handler: @escaping (UInt32, String) -> Void) throws(BusError) {
        try bus.addMatch(signalRule("ActionInvoked")) { message in
            guard let id = try? message.readUInt32(), let key = try? message.readString() else { return }
            handler(id, key)
        }
    }

    /// `handler(id, reason)` for each `NotificationClosed`.
    package func onNotificationClosed(_ handler: @escaping (UInt32, NotificationClosedReason) -> Void) throws(BusError) {
        try bus.addMatch(signalRule("NotificationClosed")) { message in
            guard let id = try? message.readUInt32(), let reason = try? message.readUInt32() else { return }
            handler(id, NotificationClosedReason(rawValue: reason))
        }
    }

    /// `handler(id, token)` for each `ActivationToken` (specification 1.2): sent before the
    /// `ActionInvoked` it belongs to, for the app to raise its window with.
    package func onActivationToken(_ handler: @escaping (UInt32, String) -> Void) throws(BusError) {
        try bus.addMatch(signalRule("ActivationToken")) { message in
            guard let id = try? message.readUInt32(), let token = try? message.readString() else { return }
            handler(id, token)
        }
    }

    /// `handler(id, text)` for each `NotificationReplied`: KDE Plasma's inline reply, the
    /// text a person typed into a bubble's `inline-reply` action.
    package func onNotificationReplied(_ handler: @escaping (UInt32, String) -> Void) throws(BusError) {
        try bus.addMatch(signalRule("NotificationReplied")) { message in
            guard let id = try? message.readUInt32(), let text = try? message.readString() else { return }
            handler(id, text)
        }
    }

    /// `handler(hasOwner)` each time the name changes hands (`NameOwnerChanged`).
    package func onOwnerChanged(_ handler: @escaping (Bool) -> Void) throws(BusError) {
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.busName)'"
        try bus.addMatch(rule) { message in
            guard (try? message.readString()) == Self.busName, (try? message.readString()) != nil,
                let newOwner = try? message.readString()
            else { return }
            handler(!newOwner.isEmpty)
        }
    }

    private func call(_ member: String) throws(BusError) -> BusMessage {
        try bus.methodCall(destination: Self.busName, path: Self.path, interface: Self.interface, member: member)
    }

    private func busCall(_ member: String) throws(BusError) -> BusMessage {
        try bus.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: member
        )
    }

    private func signalRule(_ member: String) -> String {
        "type='signal',path='\(Self.path)',interface='\(Self.interface)',member='\(member)'"
    }
}
