/// A value in a D-Bus variant (`v`), as the Notify hints carry them: the few basic types
/// the Desktop Notifications specification uses.
package enum BusValue: Sendable, Hashable {
    case string(String)
    case byte(UInt8)
    case int32(Int32)
    case uint32(UInt32)
    case boolean(Bool)

    /// The D-Bus signature of the value.
    package var signature: String {
        switch self {
        case .string: "s"
        case .byte: "y"
        case .int32: "i"
        case .uint32: "u"
        case .boolean: "b"
        }
    }
}
