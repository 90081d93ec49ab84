/// The names of a params type's members, in the order its reader asks for them: with it,
/// an object's members are matched to the names in one pass over the object, and each
/// name read after is a slot, not a search (``ParamsReader/object(_:_:)``).
///
///     static let memberTable: ParamsMemberTable = ["app", "interaction"]
///
/// The reader must ask for every name of the table, in the table's order, whatever the
/// object holds: the names are the known members an error lists ("the members are …"),
/// and the closest of them is the "did you mean …?". Debug builds check both.
package struct ParamsMemberTable: Sendable, ExpressibleByArrayLiteral {
    /// The names, in the reader's order.
    package let names: [String]
    /// Every name's UTF-8, one after another.
    private let bytes: [UInt8]
    /// Where each name's bytes begin in `bytes`; one more than the names, the last `bytes.count`.
    private let starts: [Int]

    package init(_ names: [String]) {
        precondition(Set(names).count == names.count, "A member table names each member once: \(names)")
        self.names = names
        var bytes: [UInt8] = []
        var starts = [0]
        for name in names {
            bytes += name.utf8
            starts.append(bytes.count)
        }
        self.bytes = bytes
        self.starts = starts
    }

    package init(arrayLiteral names: String...) {
        self.init(names)
    }

    /// The table with `names` after this one's: a type read beside another's members in one
    /// object, such as an intent's members after its `type`.
    package func followed(by names: [String]) -> ParamsMemberTable {
        ParamsMemberTable(self.names + names)
    }

    var count: Int { names.count }

    /// The slot of the name whose unescaped UTF-8 is `name`, or nil when it is none of them.
    @inline(__always)
    func slot(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                for slot in 0..<(starts.count - 1) {
                    let start = starts[slot]
                    guard starts[slot + 1] - start == name.count else { continue }
                    var offset = 0
                    while offset < name.count, bytes[start + offset] == name[offset] { offset += 1 }
                    if offset == name.count { return slot }
                }
                return nil
            }
        }
    }
}
