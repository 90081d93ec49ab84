import HeraldBus
import HeraldDesktop
import HeraldProtocol

/// What a person does with the bubble of one of the gateway's notifications, told to the
/// app that sent it, and only to it: each signal is addressed to its sender.
extension NotificationGateway {
    /// A person acted on the bubble of one of the gateway's notifications: the app hears
    /// `ActivationToken` (when the renderer sent one) and `ActionInvoked`, or, for text
    /// typed into an inline reply, `NotificationReplied` with it.
    func actionInvoked(_ key: NotificationKey, action: String, reply: String? = nil) {
        guard let id = records.id(for: key), let record = records[id] else { return }
        if let token = tokens.removeValue(forKey: key) { emitToken(token, for: id) }
        if let reply, record.portal == nil { return emitReply(reply, for: record) }
        emitAction(action, for: record, reply: reply)
    }

    /// The bubble of one of the gateway's notifications closed.
    func bubbleClosed(_ key: NotificationKey, reason: NotificationClosedReason) {
        tokens[key] = nil
        guard let id = records.id(for: key), let record = records[id] else { return }
        emitClosed(record, reason: reason)
    }

    func emitAction(_ action: String, for record: GatewayRecords.Record, reply: String?) {
        if let portal = record.portal { return portalAction?(portal, action, reply) ?? () }
        do {
            try emit("ActionInvoked", to: record) { m throws(BusError) in try m.append(action) }
        } catch {
            Log.info("ActionInvoked for \(record.app) was not sent: \(error)")
        }
    }

    func emitReply(_ text: String, for record: GatewayRecords.Record) {
        do {
            try emit("NotificationReplied", to: record) { m throws(BusError) in try m.append(text) }
        } catch {
            Log.info("NotificationReplied for \(record.app) was not sent: \(error)")
        }
    }

    func emitToken(_ token: String, for id: UInt32) {
        guard let record = records[id], record.portal == nil else { return }
        try? emit("ActivationToken", to: record) { m throws(BusError) in try m.append(token) }
    }

    func emitClosed(_ record: GatewayRecords.Record, reason: NotificationClosedReason) {
        guard record.portal == nil else { return }
        try? emit("NotificationClosed", to: record) { m throws(BusError) in try m.append(reason.rawValue) }
    }

    /// The interface's signal `member`, to the app that sent `record` alone: its id, then
    /// what `value` appends.
    private func emit(_ member: String, to record: GatewayRecords.Record, _ value: (BusMessage) throws(BusError) -> Void) throws(BusError) {
        try bus.emitSignal(path: Self.path, interface: Self.interface, member: member, to: record.sender) { m throws(BusError) in
            try m.append(record.id)
            try value(m)
        }
    }
}
