/// A D-Bus value, as the notification interfaces carry them in variants: the
/// Desktop Notifications hints (`a{sv}`, `image-data`'s `(iiibiiay)`) and the portal's
/// notification dictionary (`a{sv}` holding `aa{sv}` buttons and `(sv)` icons).
package indirect enum BusValue: Sendable, Hashable {
    case string(String)
    case objectPath(String)
    case signature(String)
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    /// An array of bytes (`ay`), kept whole: image pixels, a portal icon's bytes.
    case bytes([UInt8])
    /// An array of bytes longer than the reader's limit: its length, its bytes not kept.
    case oversizedBytes(Int)
    /// A file descriptor (`h`); see ``BusFileDescriptor`` for what a read one holds.
    case fileDescriptor(BusFileDescriptor)
    /// An array of any other element type, with that type's signature (for an empty one).
    case array(element: String, [BusValue])
    /// A string-keyed dictionary of variants (`a{sv}`), in the order sent.
    case dictionary([BusEntry])
    case structure([BusValue])
    case variant(BusValue)

    /// The D-Bus signature of the value.
    package var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .fileDescriptor: "h"
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .bytes, .oversizedBytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary: "a{sv}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// Whether the value holds all it was sent with: not when bytes were past the reader's
    /// limit or it holds a file descriptor (the message's, gone with it), anywhere inside
    /// it. Such a value is not passed on.
    package var isWhole: Bool {
        switch self {
        case .oversizedBytes, .fileDescriptor: false
        case .array(_, let values), .structure(let values): values.allSatisfy(\.isWhole)
        case .dictionary(let entries): entries.allSatisfy(\.value.isWhole)
        case .variant(let inner): inner.isWhole
        default: true
        }
    }

    /// The bytes it holds (`ay` anywhere inside it): an image's pixels.
    package var byteCount: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .array(_, let values), .structure(let values): values.reduce(0) { $0 + $1.byteCount }
        case .dictionary(let entries): entries.reduce(0) { $0 + $1.value.byteCount }
        case .variant(let inner): inner.byteCount
        default: 0
        }
    }

    /// The value inside any variants.
    package var innermost: BusValue {
        if case .variant(let inner) = self { return inner.innermost }
        return self
    }

    package var stringValue: String? {
        if case .string(let value) = self { value } else if case .variant(let inner) = self { inner.stringValue } else { nil }
    }

    package var boolValue: Bool? {
        if case .boolean(let value) = self { value } else if case .variant(let inner) = self { inner.boolValue } else { nil }
    }

    /// A whole number of any width, as the hints' `urgency` (`y`) arrives from careless senders too.
    package var integerValue: Int? {
        switch self {
        case .byte(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint64(let value): Int(exactly: value)
        case .variant(let inner): inner.integerValue
        default: nil
        }
    }

    package var stringsValue: [String]? {
        switch self {
        case .array("s", let values): values.compactMap(\.stringValue)
        case .variant(let inner): inner.stringsValue
        default: nil
        }
    }
}

/// One entry of an `a{sv}` dictionary.
package struct BusEntry: Sendable, Hashable {
    package var key: String
    package var value: BusValue

    package init(key: String, value: BusValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == BusEntry {
    /// The value of the first entry named `key`.
    package subscript(key: String) -> BusValue? { first { $0.key == key }?.value }
}

/// A file descriptor sent as a value. One read from a message is the message's (`number`
/// closes with it) and, where the reader asked for it, carries what it held when read: a
/// regular file's bytes (a sealed memfd, as xdg-desktop-portal 1.19 sends an app's icon)
/// up to the reader's byte limit, else nil (a pipe or a socket, never read and so never
/// waited on, or a larger file).
/// One to append is the caller's `number`, which the message duplicates.
package struct BusFileDescriptor: Sendable, Hashable {
    package var number: Int32
    package var contents: [UInt8]?

    package init(number: Int32, contents: [UInt8]? = nil) {
        self.number = number
        self.contents = contents
    }
}
