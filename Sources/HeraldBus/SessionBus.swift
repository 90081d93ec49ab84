import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A connection to the user's session bus (`sd_bus_open_user`, which honours
/// `$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
///
/// Method calls block (`sd_bus_call`) for at most ``callTimeout``; signals arrive through
/// ``addMatch(_:handler:)`` handlers, run inside ``processPending()``. Not thread-safe, as
/// sd-bus is not: own it from one loop, which polls ``fileDescriptor`` for ``pollEvents``
/// until ``pollTimeoutMilliseconds`` and then calls ``processPending()``.
package final class SessionBus {
    let pointer: OpaquePointer
    private var slots: [OpaquePointer] = []
    private var handlers: [AnyObject] = []
    /// How long a method call may take before it fails with ETIMEDOUT.
    package var callTimeout: Duration = .seconds(10)

    package init() throws(BusError) {
        var bus: OpaquePointer? = nil
        try check(sd_bus_open_user(&bus), "connect to the session bus")
        pointer = bus!
    }

    /// A connection to the bus at `address` (such as `unix:path=/run/user/1000/bus`), for a
    /// program that is handed one rather than finding the user's.
    package init(address: String) throws(BusError) {
        var bus: OpaquePointer? = nil
        try check(sd_bus_new(&bus), "create a bus connection")
        do {
            try check(sd_bus_set_address(bus, address), "use the bus address \(address)")
            try check(sd_bus_set_bus_client(bus, 1), "act as a bus client")
            try check(sd_bus_start(bus), "connect to \(address)")
        } catch {
            sd_bus_unref(bus)
            throw error
        }
        pointer = bus!
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(pointer)
    }

    /// A new method call, to be completed with `append` and sent with ``call(_:)``.
    package func methodCall(destination: String, path: String, interface: String, member: String) throws(BusError) -> BusMessage {
        var message: OpaquePointer? = nil
        try check(
            sd_bus_message_new_method_call(pointer, &message, destination, path, interface, member),
            "build a call of \(interface).\(member)"
        )
        return BusMessage(owning: message!)
    }

    /// Sends `message` and waits for its reply; a D-Bus error reply becomes a ``BusError``
    /// with its name. Unrelated messages that arrive meanwhile wait for ``processPending()``.
    package func call(_ message: BusMessage) throws(BusError) -> BusMessage {
        var error = sd_bus_error()
        var reply: OpaquePointer? = nil
        let microseconds = UInt64(callTimeout.components.seconds) * 1_000_000
            + UInt64(callTimeout.components.attoseconds / 1_000_000_000_000)
        let result = sd_bus_call(pointer, message.pointer, microseconds, &error, &reply)
        if result < 0 {
            let member = message.member ?? "a method"
            throw BusError("call \(member)", returned: result, error: &error)
        }
        return BusMessage(owning: reply!)
    }

    /// Runs `handler` for each message matching `rule` (a D-Bus match rule, such as
    /// `type='signal',interface='org.freedesktop.Notifications'`), for the bus's lifetime.
    package func addMatch(_ rule: String, handler: @escaping (BusMessage) -> Void) throws(BusError) {
        let box = MatchHandler(handler)
        var slot: OpaquePointer? = nil
        try check(
            sd_bus_add_match(pointer, &slot, rule, matchCallback, Unmanaged.passUnretained(box).toOpaque()),
            "add the match \(rule)"
        )
        keep(box, slot: slot!)
    }

    /// Keeps a callback's box and its slot for the bus's lifetime.
    func keep(_ box: AnyObject, slot: OpaquePointer) {
        handlers.append(box)
        slots.append(slot)
    }

    /// Dispatches what has arrived, one message at a time while `proceed` holds: match
    /// handlers and served calls run here. Returns true when it stopped because `proceed`
    /// no longer held, with messages perhaps still waiting. Throws when the bus connection
    /// is lost.
    @discardableResult
    package func processPending(while proceed: () -> Bool = { true }) throws(BusError) -> Bool {
        while proceed() {
            let result = sd_bus_process(pointer, nil)
            try check(result, "process the session bus")
            if result == 0 { return false }
        }
        return true
    }

    /// Blocks until something arrives or `timeout` passes, then dispatches it.
    package func wait(timeout: Duration) throws(BusError) {
        let microseconds = UInt64(max(0, timeout.components.seconds)) * 1_000_000
        let result = sd_bus_wait(pointer, microseconds)
        if result < 0, result != -EINTR { try check(result, "wait on the session bus") }
        try processPending()
    }

    /// The descriptor to poll, with ``pollEvents``.
    package var fileDescriptor: Int32 { sd_bus_get_fd(pointer) }

    /// The `poll` events sd-bus waits for now.
    package var pollEvents: Int16 {
        let events = sd_bus_get_events(pointer)
        return events < 0 ? Int16(POLLIN) : Int16(events)
    }

    /// How long a `poll` may wait before sd-bus has a timeout to handle; -1 for none.
    package var pollTimeoutMilliseconds: Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(pointer, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(min(UInt64(Int32.max), (deadline - nowMicroseconds + 999) / 1000))
    }
}

/// A match handler, kept alive by its bus and handed to sd-bus as the callback's userdata.
private final class MatchHandler {
    let handle: (BusMessage) -> Void
    init(_ handle: @escaping (BusMessage) -> Void) { self.handle = handle }
}

private let matchCallback: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    Unmanaged<MatchHandler>.fromOpaque(userdata).takeUnretainedValue().handle(BusMessage(borrowing: message))
    return 0
}
