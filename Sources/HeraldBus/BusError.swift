import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed sd-bus call: the D-Bus error name when the peer sent one, else the errno
/// libsystemd returned, and a sentence for a person.
package struct BusError: Error, CustomStringConvertible, Sendable {
    /// The D-Bus error name (`org.freedesktop.DBus.Error.ServiceUnknown`), when there is one.
    package var name: String?
    /// The positive errno libsystemd returned.
    package var errno: Int32
    package var message: String

    package var description: String {
        if let name { return "\(name): \(message)" }
        return message
    }

    package init(name: String?, errno: Int32, message: String) {
        self.name = name
        self.errno = errno
        self.message = message
    }

    /// From a negative return value of an `sd_bus_*` function, naming what was being done.
    init(_ doing: String, returned value: Int32) {
        name = nil
        errno = -value
        message = "\(doing): \(String(cString: strerror(-value)))"
    }

    /// From an `sd_bus_error` filled in by `sd_bus_call`, which it frees.
    init(_ doing: String, returned value: Int32, error: inout sd_bus_error) {
        defer { sd_bus_error_free(&error) }
        errno = -value
        if let errorName = error.name {
            name = String(cString: errorName)
            message = "\(doing): " + (error.message.map { String(cString: $0) } ?? name!)
        } else {
            name = nil
            message = "\(doing): \(String(cString: strerror(-value)))"
        }
    }

    /// The peer has no such method (older server, or not that interface).
    package var isUnknownMethod: Bool { name == "org.freedesktop.DBus.Error.UnknownMethod" }
    /// Nobody owns the destination name and it cannot be activated.
    package var isServiceUnknown: Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }
}

/// Throws a ``BusError`` when an `sd_bus_*` function returned a negative errno.
@inline(__always)
func check(_ value: Int32, _ doing: @autoclosure () -> String) throws(BusError) {
    if value < 0 { throw BusError(doing(), returned: value) }
}
