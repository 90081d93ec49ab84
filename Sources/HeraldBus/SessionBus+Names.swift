import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Owning a well-known name, and who owns one.
extension SessionBus {
    /// What `RequestName` gave.
    package enum NameRequest: Sendable, Equatable {
        /// This connection owns the name now.
        case owned
        /// Another connection owns it and does not let it go: who (``ownerDescription(of:)``).
        case ownedBy(String)
        /// Another connection owns it (who, as in ``ownedBy(_:)``), and this one waits in the
        /// bus's queue: the bus gives it the name (`NameAcquired`) when those before it leave.
        case queued(behind: String)
    }

    /// Asks for `name`, never replacing its owner: a desktop shell that owns it keeps it.
    /// Without `queueing` the request ends there; with it, this connection waits in the
    /// bus's queue for the name, and ``onOwnership(of:_:)`` hears when the bus gives it.
    package func requestName(_ name: String, queueing: Bool = false) throws(BusError) -> NameRequest {
        // SD_BUS_NAME_QUEUE: C's anonymous 64-bit enum does not import. Without it sd-bus
        // asks with DO_NOT_QUEUE.
        let result = sd_bus_request_name(pointer, name, queueing ? 1 << 2 : 0)
        if result > 0 || result == -EALREADY { return .owned }
        if result == 0 { return .queued(behind: ownerDescription(of: name) ?? "another connection") }
        if result == -EEXIST { return .ownedBy(ownerDescription(of: name) ?? "another connection") }
        throw BusError("request the name \(name)", returned: result)
    }

    /// `handler(true)` each time the bus gives this connection `name` (`NameAcquired`: at
    /// once for a name it was granted, or when those before it in the queue left), and
    /// `handler(false)` each time it takes the name away (`NameLost`); for the bus's
    /// lifetime, from ``processPending(while:)``.
    package func onOwnership(of name: String, _ handler: @escaping (Bool) -> Void) throws(BusError) {
        for (member, owned) in [("NameAcquired", true), ("NameLost", false)] {
            let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                + "interface='org.freedesktop.DBus',member='\(member)',arg0='\(name)'"
            try addMatch(rule) { _ in handler(owned) }
        }
    }

    /// The unique name of `name`'s owner (`GetNameOwner`); nil when nobody owns it.
    package func nameOwner(_ name: String) throws(BusError) -> String? {
        let message = try methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner"
        )
        try message.append(name)
        do {
            return try call(message).readString()
        } catch where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil
        }
    }

    /// `name`'s owner for a person to read: its unique name, with its program and pid
    /// when the bus tells them (`:1.42 (dunst, pid 1234)`); nil when nobody owns it.
    package func ownerDescription(of name: String) -> String? {
        guard let unique = try? nameOwner(name) else { return nil }
        var creds: OpaquePointer? = nil
        // SD_BUS_CREDS_PID | SD_BUS_CREDS_COMM | SD_BUS_CREDS_AUGMENT (numbers, as in
        // senderCredentials(of:)): the program's name is read from /proc by the pid, which
        // may have changed hands meanwhile. Good enough for a log line, never for a decision.
        guard sd_bus_get_name_creds(pointer, unique, (1 << 0) | (1 << 12) | (1 << 63), &creds) >= 0 else { return unique }
        defer { sd_bus_creds_unref(creds) }
        var pid: pid_t = 0
        var comm: UnsafePointer<CChar>? = nil
        guard sd_bus_creds_get_pid(creds, &pid) >= 0 else { return unique }
        if sd_bus_creds_get_comm(creds, &comm) >= 0, let comm { return "\(unique) (\(String(cString: comm)), pid \(pid))" }
        return "\(unique) (pid \(pid))"
    }

    /// This connection's unique name (`:1.42`).
    package var uniqueName: String? {
        var name: UnsafePointer<CChar>? = nil
        guard sd_bus_get_unique_name(pointer, &name) >= 0, let name else { return nil }
        return String(cString: name)
    }
}
