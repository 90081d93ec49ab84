import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The serving half of a bus connection: answering the method calls sent to it, and
/// sending signals to one receiver. Owning the name they are sent to is
/// `SessionBus+Names.swift`'s.
extension SessionBus {
    /// Runs `handler` for every method call to `prefix` and the paths below it (`/` for
    /// all). The handler answers the call itself (``reply(to:_:)``, ``replyError(to:name:message:)``,
    /// or later) and returns true; false lets sd-bus answer (`UnknownObject`, or the
    /// standard interfaces).
    package func serve(pathsUnder prefix: String, handler: @escaping (BusMessage) -> Bool) throws(BusError) {
        let box = ServeHandler(handler)
        var slot: OpaquePointer? = nil
        try check(
            sd_bus_add_fallback(pointer, &slot, prefix, serveCallback, Unmanaged.passUnretained(box).toOpaque()),
            "serve the paths under \(prefix)"
        )
        keep(box, slot: slot!)
    }

    /// Sends `call`'s reply, filled by `build`.
    package func reply(to call: BusMessage, _ build: (BusMessage) throws(BusError) -> Void = { _ in }) throws(BusError) {
        try send(replyMessage(to: call, build))
    }

    /// `call`'s reply, filled by `build`, to send later with ``send(_:)``: it keeps none
    /// of the call's arguments.
    package func replyMessage(to call: BusMessage, _ build: (BusMessage) throws(BusError) -> Void = { _ in }) throws(BusError) -> BusMessage {
        var reply: OpaquePointer? = nil
        try check(sd_bus_message_new_method_return(call.pointer, &reply), "build a reply")
        let message = BusMessage(owning: reply!)
        try build(message)
        return message
    }

    /// Sends an error reply `name` (such as `org.freedesktop.DBus.Error.InvalidArgs`) with a sentence.
    package func replyError(to call: BusMessage, name: String, message text: String) throws(BusError) {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        _ = sd_bus_error_set(&error, name, text)
        var reply: OpaquePointer? = nil
        try check(sd_bus_message_new_method_error(call.pointer, &reply, &error), "build an error reply")
        try send(BusMessage(owning: reply!))
    }

    /// A signal from `path` for `destination` alone (a unicast signal: no other
    /// connection's match rule receives it), filled by `build` and sent.
    package func emitSignal(
        path: String, interface: String, member: String, to destination: String,
        _ build: (BusMessage) throws(BusError) -> Void
    ) throws(BusError) {
        var signal: OpaquePointer? = nil
        try check(sd_bus_message_new_signal(pointer, &signal, path, interface, member), "build the signal \(member)")
        let message = BusMessage(owning: signal!)
        try check(sd_bus_message_set_destination(signal, destination), "address the signal \(member)")
        try build(message)
        try send(message)
    }

    /// Broadcasts a signal with `signal`'s path, interface, member and arguments: another
    /// bus's signal passed on as this connection's own.
    package func emitCopy(of signal: BusMessage) throws(BusError) {
        guard let path = signal.path, let interface = signal.interface, let member = signal.member else { return }
        var copy: OpaquePointer? = nil
        try check(sd_bus_message_new_signal(pointer, &copy, path, interface, member), "build the signal \(member)")
        let message = BusMessage(owning: copy!)
        try check(sd_bus_message_rewind(signal.pointer, 1), "rewind a signal")
        try check(sd_bus_message_copy(copy, signal.pointer, 1), "copy a signal's arguments")
        try send(message)
    }

    /// Queues `message`; it is written as the descriptor takes it, by ``processPending()``
    /// or ``flush()``.
    package func send(_ message: BusMessage) throws(BusError) {
        try check(sd_bus_send(pointer, message.pointer, nil), "send a message")
    }

    /// Writes everything queued, waiting as long as that takes.
    package func flush() throws(BusError) {
        try check(sd_bus_flush(pointer), "write what is queued")
    }

    /// The sender's pid and effective uid, as the bus daemon knows them
    /// (`GetConnectionCredentials`): asked of the bus, never taken from the message.
    package func senderCredentials(of message: BusMessage) throws(BusError) -> (pid: Int32, uid: UInt32) {
        var creds: OpaquePointer? = nil
        // SD_BUS_CREDS_PID | SD_BUS_CREDS_EUID: C's anonymous 64-bit enum does not import.
        try check(sd_bus_query_sender_creds(message.pointer, (1 << 0) | (1 << 4), &creds), "ask the bus who sent \(message.member ?? "a call")")
        defer { sd_bus_creds_unref(creds) }
        var pid: pid_t = 0
        var uid: uid_t = 0
        try check(sd_bus_creds_get_pid(creds, &pid), "read the sender's pid")
        try check(sd_bus_creds_get_euid(creds, &uid), "read the sender's uid")
        return (pid, uid)
    }

    /// Sends `message` without waiting; `handler` gets its reply (or the error, a timeout
    /// after `timeout`) from ``processPending()``.
    package func callAsync(
        _ message: BusMessage, timeout: Duration = .seconds(25), handler: @escaping (Result<BusMessage, BusError>) -> Void
    ) throws(BusError) {
        let box = ReplyHandler(handler)
        let microseconds = UInt64(max(0, timeout.components.seconds)) * 1_000_000
        // The floating slot keeps the handler until the reply came or timed out.
        let retained = Unmanaged.passRetained(box)
        let result = sd_bus_call_async(pointer, nil, message.pointer, replyCallback, retained.toOpaque(), microseconds)
        if result < 0 {
            retained.release()
            throw BusError("call \(message.member ?? "a method")", returned: result)
        }
    }

    /// A new method call on this bus carrying `call`'s path, interface, member and
    /// arguments, for `destination`: what a proxy forwards.
    package func forwardedCall(of call: BusMessage, to destination: String) throws(BusError) -> BusMessage {
        let message = try methodCall(
            destination: destination, path: call.path ?? "/", interface: call.interface ?? "", member: call.member ?? ""
        )
        try check(sd_bus_message_rewind(call.pointer, 1), "rewind a call")
        try check(sd_bus_message_copy(message.pointer, call.pointer, 1), "copy a call's arguments")
        return message
    }

    /// Replies to `call` with `answer`'s arguments (a reply from elsewhere), or its error.
    package func relay(_ answer: Result<BusMessage, BusError>, to call: BusMessage) throws(BusError) {
        switch answer {
        case .success(let reply):
            try self.reply(to: call) { message throws(BusError) in
                try check(sd_bus_message_rewind(reply.pointer, 1), "rewind a reply")
                try check(sd_bus_message_copy(message.pointer, reply.pointer, 1), "copy a reply")
            }
        case .failure(let error):
            try replyError(to: call, name: error.name ?? "org.freedesktop.DBus.Error.Failed", message: error.message)
        }
    }
}

/// A served path's handler, kept alive by its bus.
final class ServeHandler {
    let handle: (BusMessage) -> Bool
    init(_ handle: @escaping (BusMessage) -> Bool) { self.handle = handle }
}

private let serveCallback: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    return Unmanaged<ServeHandler>.fromOpaque(userdata).takeUnretainedValue().handle(BusMessage(borrowing: message)) ? 1 : 0
}

/// An asynchronous call's reply handler: retained until its one reply.
private final class ReplyHandler {
    let handle: (Result<BusMessage, BusError>) -> Void
    init(_ handle: @escaping (Result<BusMessage, BusError>) -> Void) { self.handle = handle }
}

private let replyCallback: sd_bus_message_handler_t = { message, userdata, _ in
    guard let userdata else { return 0 }
    let box = Unmanaged<ReplyHandler>.fromOpaque(userdata).takeRetainedValue()
    guard let message else { return 0 }
    if let error = sd_bus_message_get_error(message) {
        let name = error.pointee.name.map { String(cString: $0) }
        let text = error.pointee.message.map { String(cString: $0) } ?? name ?? "failed"
        box.handle(.failure(BusError(name: name, errno: EIO, message: text)))
    } else {
        box.handle(.success(BusMessage(borrowing: message)))
    }
    return 1
}
