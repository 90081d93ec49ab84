import HeraldProtocol

/// Reads what ``InteractionRecordWriter`` wrote, from a range of a snapshot file: the
/// input and the primitives. What a record holds is read by `next()` in
/// `InteractionRecord.swift`, a person by `person()` in `InteractionRecord+Person.swift`.
///
/// Every read is bounds-checked against the range, every count against the bytes left,
/// and every flag and enum number against what this build knows: a damaged chunk throws
/// ``SnapshotFileError`` naming the file byte; it never traps.
package struct InteractionRecordReader {
    /// How the rarely set members are written: JSON now; a payload of the generic binary
    /// coder in format version 1 (``TaggedPayload`` reads it).
    package enum RareMembers {
        case json, tagged
    }

    package var input: PayloadReader
    package let appCount: Int
    package let rareMembers: RareMembers

    /// Reads the records in `range` of `file`, whose apps number fewer than `appCount`.
    package init(file: UnsafeRawBufferPointer, range: Range<Int>, appCount: Int, rareMembers: RareMembers) {
        self.input = PayloadReader(file, range: range)
        self.appCount = appCount
        self.rareMembers = rareMembers
    }

    package var isAtEnd: Bool { input.isAtEnd }

    // MARK: Primitives

    package func corrupted(at offset: Int, _ reason: String) -> SnapshotFileError {
        input.damaged(at: offset, reason)
    }

    package mutating func byte() throws(SnapshotFileError) -> UInt8 { try input.byte() }
    package mutating func varint() throws(SnapshotFileError) -> UInt64 { try input.varint() }
    package mutating func count() throws(SnapshotFileError) -> Int { try input.count() }
    package mutating func double() throws(SnapshotFileError) -> Double { try input.double() }
    package mutating func string() throws(SnapshotFileError) -> String { try input.string() }

    /// Passes over a string, checked as ``string()`` checks it.
    package mutating func skipString() throws(SnapshotFileError) { _ = try input.lengthPrefixed() }

    package mutating func enumCase<T>(_ table: [T]) throws(SnapshotFileError) -> T {
        let code = try byte()
        guard Int(code) < table.count else { throw corrupted(at: input.cursor - 1, "unknown \(T.self) number \(code).") }
        return table[Int(code)]
    }

    /// A rarely set member: JSON, or in format version 1 a generic binary payload, read
    /// as JSON by ``TaggedPayload``; `read` makes it a value.
    package mutating func rare<T>(_ read: (JSONValue) throws(RecordDamage) -> T) throws(SnapshotFileError) -> T {
        let start = input.cursor
        let range = try input.lengthPrefixed()
        let member = UnsafeRawBufferPointer(rebasing: input.bytes[range])
        do {
            let json: JSONValue
            switch rareMembers {
            case .json:
                json = try JSONParser.parse(member, maxDepth: sectionMaximumDepth)
            case .tagged:
                json = try JSONParser.parse(Array(try TaggedPayload.json(of: member, fileOffset: range.lowerBound)), maxDepth: sectionMaximumDepth)
            }
            return try read(json)
        } catch let error as SnapshotFileError {
            throw error
        } catch let error as RecordDamage {
            throw corrupted(at: start, "a \(T.self) does not read: \(error.description)")
        } catch {
            throw corrupted(at: start, "a \(T.self) is not JSON: \(error)")
        }
    }

    /// A rarely set member that is a record: an object, read by `read`.
    package mutating func rareRecord<T>(_ read: (RecordReader) throws(RecordDamage) -> T) throws(SnapshotFileError) -> T {
        try rare { json throws(RecordDamage) in try read(try RecordReader(json)) }
    }
}
