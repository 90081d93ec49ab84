import FoundationEssentials
import HeraldProtocol

/// An interaction as the store keeps it: its bytes in the layout of a snapshot's
/// interaction records from the flags on (``InteractionRecordLayout``), the same bytes a
/// change log's donation record holds. One allocation, where a struct of strings and
/// arrays is one per string, and copied into a snapshot or the log as it is.
///
/// Made only by encoding an interaction or from bytes read as one (``init(reading:)``),
/// so decoding it again cannot fail. A member a hot path needs (the flags, the date) is
/// read in place; the rest by decoding the whole (``interaction``), a few hundred
/// nanoseconds for a typical message.
package struct EncodedInteraction: Hashable, Sendable {
    package let bytes: [UInt8]

    /// Encodes `interaction`.
    package init(_ interaction: Interaction) {
        var writer = InteractionRecordWriter()
        writer.bytes.reserveCapacity(160)
        writer.appendInteraction(interaction)
        bytes = writer.bytes
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads the interaction at the reader's cursor, checked as ``InteractionRecordReader``
    /// checks it (its errors name the file byte), and keeps its bytes; in format version 1,
    /// whose rare members are not JSON, it encodes what it read.
    package init(reading reader: inout InteractionRecordReader) throws(SnapshotFileError) {
        let start = reader.input.cursor
        guard reader.rareMembers == .json else {
            self.init(try reader.interaction())
            return
        }
        // Flags not padded to their width (the reader takes any varint; no writer makes
        // one) would defeat the reads in place: such a record is read whole and encoded.
        let file = reader.input.bytes
        let width = InteractionRecordLayout.flagsWidth
        guard reader.input.remaining >= width, (0..<width).allSatisfy({ (file[start + $0] & 0x80 != 0) == ($0 < width - 1) }) else {
            self.init(try reader.interaction())
            return
        }
        try reader.checkInteraction()
        self.init(bytes: Array(UnsafeRawBufferPointer(rebasing: file[start..<reader.input.cursor])))
    }

    /// The interaction, decoded.
    package var interaction: Interaction {
        bytes.withUnsafeBytes { raw in
            var reader = InteractionRecordReader(file: raw, range: 0..<raw.count, appCount: 0, rareMembers: .json)
            do {
                return try reader.interaction()
            } catch {
                preconditionFailure("An encoded interaction decodes: \(error)")
            }
        }
    }

    /// Its flags: the first ``InteractionRecordLayout/flagsWidth`` bytes.
    var flags: InteractionRecordFlags {
        var value: UInt64 = 0
        for index in 0..<InteractionRecordLayout.flagsWidth {
            value |= UInt64(bytes[index] & 0x7F) << (7 * UInt64(index))
        }
        return InteractionRecordFlags(rawValue: value)
    }

    /// Whether it is an incoming call: the one kind ``CallHistory`` files.
    var isIncomingCall: Bool { Self.isIncomingCall(flags) }

    /// Whether a record of `flags` is an incoming call.
    static func isIncomingCall(_ flags: InteractionRecordFlags) -> Bool {
        flags.contains(.startCall) && !flags.contains(.outgoing)
    }

    /// Whether it is outgoing.
    var isOutgoing: Bool { flags.contains(.outgoing) }

    /// Its identifier, read in place: the first member after the flags.
    package var identifier: String {
        readInPlace { reader throws(SnapshotFileError) in try reader.string() }
    }

    /// Its group identifier, read in place: after the identifier.
    var groupIdentifier: String? {
        let flags = flags
        guard flags.contains(.hasGroupIdentifier) else { return nil }
        return readInPlace { reader throws(SnapshotFileError) in
            _ = try reader.lengthPrefixed()
            return try reader.string()
        }
    }

    /// Its own date, read in place: after the identifier and the group identifier.
    package var date: Date? {
        let flags = flags
        guard flags.contains(.hasDate) else { return nil }
        return readInPlace { reader throws(SnapshotFileError) in
            _ = try reader.lengthPrefixed()
            if flags.contains(.hasGroupIdentifier) { _ = try reader.lengthPrefixed() }
            return Date(timeIntervalSinceReferenceDate: try reader.double())
        }
    }

    /// What `read` reads of the members after the flags.
    private func readInPlace<T>(_ read: (inout PayloadReader) throws(SnapshotFileError) -> T) -> T {
        bytes.withUnsafeBytes { raw in
            var reader = PayloadReader(raw, range: InteractionRecordLayout.flagsWidth..<raw.count)
            do {
                return try read(&reader)
            } catch {
                preconditionFailure("An encoded interaction decodes: \(error)")
            }
        }
    }
}
