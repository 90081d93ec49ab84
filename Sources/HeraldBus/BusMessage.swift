import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One D-Bus message (`sd_bus_message`): built with `append`, read in order with `read`.
///
/// Only the non-variadic sd-bus functions are used: Swift cannot call C variadics.
package final class BusMessage {
    let pointer: OpaquePointer

    /// Takes over a reference (as `sd_bus_message_new_*` and `sd_bus_call` hand one over).
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Takes a new reference to a message sd-bus lends to a callback.
    init(borrowing pointer: OpaquePointer) {
        self.pointer = sd_bus_message_ref(pointer)
    }

    deinit { sd_bus_message_unref(pointer) }

    package var member: String? { sd_bus_message_get_member(pointer).map { String(cString: $0) } }
    package var sender: String? { sd_bus_message_get_sender(pointer).map { String(cString: $0) } }
    package var path: String? { sd_bus_message_get_path(pointer).map { String(cString: $0) } }
    package var interface: String? { sd_bus_message_get_interface(pointer).map { String(cString: $0) } }
    /// The signature of the whole body, such as `susssasa{sv}i`.
    package var signature: String { sd_bus_message_get_signature(pointer, 1).map { String(cString: $0) } ?? "" }
    package var destination: String? { sd_bus_message_get_destination(pointer).map { String(cString: $0) } }
    /// Its serial number on its sender's connection; 0 before it is sent.
    package var cookie: UInt64 {
        var cookie: UInt64 = 0
        return sd_bus_message_get_cookie(pointer, &cookie) < 0 ? 0 : cookie
    }
    /// A reply's: the serial number of the call it answers; nil for any other message.
    package var replyCookie: UInt64? {
        var cookie: UInt64 = 0
        return sd_bus_message_get_reply_cookie(pointer, &cookie) < 0 ? nil : cookie
    }
    /// Whether it is a method call (and so wants a reply unless it says otherwise).
    package var isMethodCall: Bool { sd_bus_message_is_method_call(pointer, nil, nil) > 0 }

    // MARK: Appending

    package func append(_ value: String) throws(BusError) {
        try check(value.withCString { sd_bus_message_append_basic(pointer, Self.type("s"), $0) }, "append a string")
    }

    package func append(_ value: UInt32) throws(BusError) {
        var value = value
        try check(sd_bus_message_append_basic(pointer, Self.type("u"), &value), "append a uint32")
    }

    package func append(_ value: Int32) throws(BusError) {
        var value = value
        try check(sd_bus_message_append_basic(pointer, Self.type("i"), &value), "append an int32")
    }

    package func append(_ value: UInt8) throws(BusError) {
        var value = value
        try check(sd_bus_message_append_basic(pointer, Self.type("y"), &value), "append a byte")
    }

    /// D-Bus booleans are 32-bit on the wire; sd-bus takes an `int`.
    package func append(_ value: Bool) throws(BusError) {
        var value: Int32 = value ? 1 : 0
        try check(sd_bus_message_append_basic(pointer, Self.type("b"), &value), "append a boolean")
    }

    /// An array of strings (`as`).
    package func append(_ values: [String]) throws(BusError) {
        try openContainer("a", "s")
        for value in values { try append(value) }
        try closeContainer()
    }

    /// A variant (`v`) holding `value`.
    package func append(_ value: BusValue) throws(BusError) {
        try openContainer("v", value.signature)
        try appendValue(value)
        try closeContainer()
    }

    /// `value` itself, of its own signature (not wrapped in a variant).
    package func appendValue(_ value: BusValue) throws(BusError) {
        switch value {
        case .string(let string): try append(string)
        case .objectPath(let text), .signature(let text):
            try check(
                text.withCString { sd_bus_message_append_basic(pointer, Self.type(Character(value.signature)), $0) }, "append a path or a signature"
            )
        case .byte(let byte): try append(byte)
        case .boolean(let bool): try append(bool)
        case .int16(var int): try check(sd_bus_message_append_basic(pointer, Self.type("n"), &int), "append an int16")
        case .uint16(var int): try check(sd_bus_message_append_basic(pointer, Self.type("q"), &int), "append a uint16")
        case .int32(let int): try append(int)
        case .uint32(let int): try append(int)
        case .int64(var int): try check(sd_bus_message_append_basic(pointer, Self.type("x"), &int), "append an int64")
        case .uint64(var int): try check(sd_bus_message_append_basic(pointer, Self.type("t"), &int), "append a uint64")
        case .double(var double): try check(sd_bus_message_append_basic(pointer, Self.type("d"), &double), "append a double")
        case .bytes(let bytes):
            try check(bytes.withUnsafeBytes { sd_bus_message_append_array(pointer, Self.type("y"), $0.baseAddress, $0.count) }, "append bytes")
        case .fileDescriptor(let descriptor):
            var number = descriptor.number
            try check(sd_bus_message_append_basic(pointer, Self.type("h"), &number), "append a file descriptor")
        case .oversizedBytes:
            throw BusError(name: nil, errno: EINVAL, message: "a value that was not kept (\(value.signature)) cannot be sent")
        case .array(let element, let values):
            try openContainer("a", element)
            for value in values { try appendValue(value) }
            try closeContainer()
        case .dictionary(let entries):
            try append(entries.map { (key: $0.key, value: $0.value) })
        case .structure(let fields):
            try openContainer("r", String(value.signature.dropFirst().dropLast()))
            for field in fields { try appendValue(field) }
            try closeContainer()
        case .variant(let inner):
            try append(inner)
        }
    }

    /// A dictionary of string to variant (`a{sv}`), in the order given.
    package func append(_ dictionary: [(key: String, value: BusValue)]) throws(BusError) {
        try openContainer("a", "{sv}")
        for (key, value) in dictionary {
            try openContainer("e", "sv")
            try append(key)
            try append(value)
            try closeContainer()
        }
        try closeContainer()
    }

    private func openContainer(_ type: Character, _ contents: String) throws(BusError) {
        try check(sd_bus_message_open_container(pointer, Self.type(type), contents), "open a container \(type)\(contents)")
    }

    private func closeContainer() throws(BusError) {
        try check(sd_bus_message_close_container(pointer), "close a container")
    }

    // MARK: Reading

    package func readString() throws(BusError) -> String {
        var value: UnsafePointer<CChar>? = nil
        try check(sd_bus_message_read_basic(pointer, Self.type("s"), &value), "read a string")
        return value.map { String(cString: $0) } ?? ""
    }

    package func readUInt32() throws(BusError) -> UInt32 {
        var value: UInt32 = 0
        try check(sd_bus_message_read_basic(pointer, Self.type("u"), &value), "read a uint32")
        return value
    }

    package func readBool() throws(BusError) -> Bool {
        var value: Int32 = 0
        try check(sd_bus_message_read_basic(pointer, Self.type("b"), &value), "read a boolean")
        return value != 0
    }

    /// An array of strings (`as`).
    package func readStrings() throws(BusError) -> [String] {
        try check(sd_bus_message_enter_container(pointer, Self.type("a"), "s"), "enter an array of strings")
        var values: [String] = []
        while true {
            var value: UnsafePointer<CChar>? = nil
            let read = sd_bus_message_read_basic(pointer, Self.type("s"), &value)
            try check(read, "read a string of an array")
            if read == 0 { break }
            values.append(value.map { String(cString: $0) } ?? "")
        }
        try check(sd_bus_message_exit_container(pointer), "leave an array of strings")
        return values
    }

    static func type(_ character: Character) -> CChar {
        CChar(bitPattern: character.asciiValue!)
    }
}
