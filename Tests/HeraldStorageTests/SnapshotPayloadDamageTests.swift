import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// Damage inside a payload whose checksums were made to hold (the file's own checks are
/// `SnapshotDamageTests`'): refused as `.undecodable` with a reason naming what is wrong,
/// or loaded and re-encoded into a snapshot that loads; never a trap, never a reserve by
/// the file's own numbers.
@Suite("Snapshot payload damage")
struct SnapshotPayloadDamageTests {
    typealias F = SnapshotFixtures

    /// The refusal of `file`; nil if it loads, and then its re-encoding must load too.
    static func refusal(_ file: [UInt8]) -> SnapshotFileError? {
        do {
            let state = try SnapshotFile.decode(file).state
            let again = try? SnapshotFile.decode(try F.file(state))
            #expect(again?.state.interactionCount == state.interactionCount, "a payload that loaded does not re-encode into one that loads")
            return nil
        } catch {
            return error
        }
    }

    /// `file`'s payload changed by `edit`, sealed again.
    static func resealed(_ file: [UInt8], _ edit: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var payload = Array(file[SnapshotHeader.size...])
        edit(&payload)
        let header = try SnapshotFile.decode(file).header
        return F.sealed(payload, interactions: Int(header.interactions), version: header.version)
    }

    @Test("Every byte flipped is refused as damage or loads and re-encodes", arguments: [false, true])
    func everyByteFlipped(formatVersion1: Bool) throws {
        let file = formatVersion1 ? FormatVersion1Fixture.bytes : try F.file(try F.fullState())
        var notDamage: [String] = []
        for offset in 0..<(file.count - SnapshotHeader.size) {
            for pattern: UInt8 in [0x01, 0x80, 0xFF] {
                let damaged = try Self.resealed(file) { $0[offset] ^= pattern }
                if let error = Self.refusal(damaged), !error.isDamage { notDamage.append("\(offset): \(error)") }
            }
        }
        #expect(notDamage.isEmpty, "\(notDamage.prefix(3))")
    }

    @Test("Every truncation is refused", arguments: [false, true])
    func everyTruncation(formatVersion1: Bool) throws {
        let file = formatVersion1 ? FormatVersion1Fixture.bytes : try F.file(try F.fullState())
        var loaded: [Int] = []
        for length in 0..<(file.count - SnapshotHeader.size) {
            let damaged = try Self.resealed(file) { $0.removeLast($0.count - length) }
            if Self.refusal(damaged) == nil { loaded.append(length) }
        }
        #expect(loaded.isEmpty, "\(loaded.prefix(5))")
    }

    @Test("Random damage never traps the reader")
    func randomDamage() throws {
        let file = try F.file(try F.fullState())
        var generator = SeededRandom(for: "SnapshotPayloadDamageTests.randomDamage")
        for _ in 0..<1500 {
            let damaged = try Self.resealed(file) { payload in
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    payload[Int.random(in: 0..<payload.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                if Bool.random(using: &generator) {
                    payload.removeLast(Int.random(in: 0..<payload.count, using: &generator))
                }
            }
            _ = Self.refusal(damaged)
        }
    }

    /// The full state's sections with the one named `name` replaced by `bytes`.
    static func replacing(_ name: String, with bytes: [UInt8], interactions: Int? = nil) throws -> [UInt8] {
        let state = try F.fullState()
        let sections = try F.sections(of: try F.file(state)).map { $0.name == name ? (name, bytes) : $0 }
        return F.sealed(F.payload(sections), interactions: interactions ?? state.interactionCount)
    }

    /// The full state's section `name`, as JSON edited by `edit`.
    static func editedJSON(_ name: String, _ edit: (inout Any) -> Void) throws -> [UInt8] {
        let section = try #require(try F.sections(of: try F.file(try F.fullState())).first { $0.name == name })
        var tree = try JSONSerialization.jsonObject(with: Data(section.bytes))
        edit(&tree)
        return try replacing(name, with: Array(try JSONSerialization.data(withJSONObject: tree)))
    }

    /// Appends a copy of the first element of the array at `key` (or of the root array).
    static func duplicateFirst(_ key: String?) -> (inout Any) -> Void {
        { tree in
            if let key, var object = tree as? [String: Any], let array = object[key] as? [Any] {
                object[key] = array + array.prefix(1)
                tree = object
            } else if let array = tree as? [Any] {
                tree = array + array.prefix(1)
            }
        }
    }

    @Test(
        "An entry listed twice in a table is refused, with the section in the reason",
        arguments: [("settings", nil), ("silenced", "conversations"), ("summaries", "summaries"), ("focuses", "uids")] as [(String, String?)]
    )
    func entryTwice(section: String, key: String?) throws {
        let intact = try Self.editedJSON(section) { _ in }
        #expect(Self.refusal(intact) == nil)
        let error = Self.refusal(try Self.editedJSON(section, Self.duplicateFirst(key)))
        #expect(error?.code == .undecodable)
        #expect(error?.reason.contains("the \(section) section") == true, "\(String(describing: error))")
    }

    @Test("A summary time that is no time of day, and JSON that is not the piece's, are refused")
    func summaryTimeAndWrongJSON() throws {
        let late = try Self.editedJSON("summaries") { tree in
            guard var root = tree as? [String: Any], var summaries = root["summaries"] as? [[String: Any]], !summaries.isEmpty else { return }
            summaries[0]["times"] = [["hour": 99, "minute": 0]]
            root["summaries"] = summaries
            tree = root
        }
        #expect(Self.refusal(late)?.code == .undecodable)
        let wrong = Self.refusal(try Self.replacing("focuses", with: Array(#"{"activations":"one"}"#.utf8)))
        #expect(wrong?.reason.contains("the focuses section") == true, "\(String(describing: wrong))")
        let badSchedule = try Self.editedJSON("focuses") { tree in
            guard var root = tree as? [String: Any], var uids = root["uids"] as? [[String: Any]], !uids.isEmpty,
                var definitions = uids[0]["definitions"] as? [[String: Any]], !definitions.isEmpty
            else { return }
            definitions[0]["schedules"] = [["start": "25:00", "end": "07:00"]]
            uids[0]["definitions"] = definitions
            root["uids"] = uids
            tree = root
        }
        #expect(Self.refusal(badSchedule)?.reason.contains("the focuses section") == true)
    }

    /// The interactions section as the writer lays it out, with the tables given.
    static func interactions(apps: [String], chunks: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendStrings(apps)
        bytes.appendVarint(UInt64(chunks.count))
        for chunk in chunks { bytes.appendLengthPrefixed(chunk) }
        return bytes
    }

    /// The full state's app names and record chunks.
    static func tables() throws -> (apps: [String], chunks: [[UInt8]]) {
        let state = try F.fullState()
        let section = try #require(try F.sections(of: try F.file(state)).first { $0.name == InteractionsSection.name })
        return try section.bytes.withUnsafeBytes { raw in
            var input = PayloadReader(raw, range: 0..<raw.count)
            let apps = try input.strings()
            let chunks = try (0..<input.count()).map { _ throws(SnapshotFileError) in Array(section.bytes[try input.lengthPrefixed()]) }
            return (apps, chunks)
        }
    }

    @Test("The interactions section as crafted here loads; an app name or a record twice is refused")
    func craftedInteractions() throws {
        let (apps, chunks) = try Self.tables()
        #expect(Self.refusal(try Self.replacing(InteractionsSection.name, with: Self.interactions(apps: apps, chunks: chunks))) == nil)
        let appTwice = Self.refusal(try Self.replacing(InteractionsSection.name, with: Self.interactions(apps: apps + [apps[0]], chunks: chunks)))
        #expect(appTwice?.reason.contains("app name is listed twice") == true, "\(String(describing: appTwice))")
        let recordTwice = Self.refusal(
            try Self.replacing(InteractionsSection.name, with: Self.interactions(apps: apps, chunks: chunks + chunks), interactions: 10)
        )
        #expect(recordTwice?.reason.contains("same key") == true, "\(String(describing: recordTwice))")
    }

    @Test("Many empty chunks reserve nothing by their number")
    func manyEmptyChunks() throws {
        // 200,000 empty chunks in 400 KB: reserving a full chunk's records for each would
        // ask for terabytes.
        let bytes = try Self.replacing(InteractionsSection.name, with: Self.interactions(apps: [], chunks: Array(repeating: [], count: 200_000)), interactions: 0)
        #expect(try SnapshotFile.decode(bytes).state.interactionCount == 0)
    }

    @Test("A section twice, unknown or missing is damage")
    func sectionsTwiceUnknownOrMissing() throws {
        let state = try F.fullState()
        let sections = try F.sections(of: try F.file(state))
        let twice = Self.refusal(F.sealed(F.payload(sections + [sections[1]]), interactions: state.interactionCount))
        #expect(twice?.code == .undecodable)
        #expect(twice?.reason.contains("comes twice") == true)
        let unknown = Self.refusal(F.sealed(F.payload(sections + [("notifications", [])]), interactions: state.interactionCount))
        #expect(unknown?.code == .undecodable)
        #expect(unknown?.reason.contains("notifications") == true)
        let withoutSummary = F.sealed(F.payload(sections.filter { $0.name != SummariesSection.name }), interactions: state.interactionCount)
        let missing = Self.refusal(withoutSummary)
        #expect(missing?.code == .undecodable)
        #expect(missing?.reason.contains("without the section summaries") == true, "\(String(describing: missing))")
        // A retired section is none of the current version's: a format 4 snapshot with it is damage.
        let retired = Self.refusal(F.sealed(F.payload(sections + [("summary", Array(#"{"apps":[],"times":[]}"#.utf8))]), interactions: state.interactionCount))
        #expect(retired?.reason.contains("a section named summary is none format version \(SnapshotHeader.currentVersion) has") == true, "\(String(describing: retired))")
    }

    @Test("A huge count or length is refused before anything is reserved")
    func hugeCounts() throws {
        for count in [UInt64(1 << 20), UInt64(UInt32.max), UInt64.max] {
            var apps: [UInt8] = []
            apps.appendVarint(count)
            #expect(Self.refusal(try Self.replacing(InteractionsSection.name, with: apps))?.code == .undecodable)
            var section: [UInt8] = []
            section.appendString(FocusSection.name)
            section.appendFixed(count, size: 8)
            #expect(Self.refusal(F.sealed(section, interactions: 0))?.code == .undecodable)
        }
    }
}
