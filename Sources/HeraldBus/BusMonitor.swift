import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A monitoring connection (`org.freedesktop.DBus.Monitoring.BecomeMonitor`, what
/// `busctl monitor` and `dbus-monitor` use): it receives a copy of every message on the
/// bus that matches its rules, as the bus daemon routes it, and sends nothing. The bus
/// daemon lets a connection of the bus's own user monitor a session bus.
///
/// Not thread-safe, as sd-bus is not; a monitor is usually owned by a thread of its own.
package final class BusMonitor {
    private let pointer: OpaquePointer

    /// Monitors the bus at `address` for messages matching any of `rules` (D-Bus match
    /// rules, such as `type='method_call',member='Notify'`).
    package init(address: String, rules: [String]) throws(BusError) {
        var bus: OpaquePointer? = nil
        try check(sd_bus_new(&bus), "create a bus connection")
        do throws(BusError) {
            try check(sd_bus_set_address(bus, address), "use the bus address \(address)")
            try check(sd_bus_set_bus_client(bus, 1), "act as a bus client")
            // Before start: sd-bus then hands every message to the reader, answering none.
            try check(sd_bus_set_monitor(bus, 1), "act as a monitor")
            try check(sd_bus_start(bus), "connect to \(address)")
            var call: OpaquePointer? = nil
            try check(
                sd_bus_message_new_method_call(
                    bus, &call, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Monitoring", "BecomeMonitor"
                ),
                "build BecomeMonitor"
            )
            let message = BusMessage(owning: call!)
            try message.append(rules)
            try message.append(UInt32(0))
            var error = sd_bus_error()
            let result = sd_bus_call(bus, message.pointer, 10_000_000, &error, nil)
            if result < 0 { throw BusError("become a monitor of \(address)", returned: result, error: &error) }
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
        pointer = bus!
    }

    deinit { sd_bus_flush_close_unref(pointer) }

    /// The next monitored message, waiting at most `timeout` for one; nil when none came.
    /// Throws when the bus connection is lost.
    package func next(timeout: Duration) throws(BusError) -> BusMessage? {
        var waited = false
        while true {
            var message: OpaquePointer? = nil
            let processed = sd_bus_process(pointer, &message)
            try check(processed, "read the monitored bus")
            if let message { return BusMessage(owning: message) }
            if processed > 0 { continue }
            if waited { return nil }
            let microseconds = UInt64(max(0, timeout.components.seconds)) * 1_000_000
                + UInt64(max(0, timeout.components.attoseconds) / 1_000_000_000_000)
            let result = sd_bus_wait(pointer, microseconds)
            if result < 0, result != -EINTR { try check(result, "wait on the monitored bus") }
            waited = true
        }
    }
}
