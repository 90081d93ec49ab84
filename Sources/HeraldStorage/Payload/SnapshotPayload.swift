import HeraldCore
import HeraldProtocol

/// The state in a snapshot: the pieces of ``sections``, each a section of its own.
///
/// The payload is a run of sections: each one's name (a varint length and UTF-8), its
/// length (8 bytes, little-endian), then its bytes. Each section is read back from its
/// own bytes, in the order written.
package enum SnapshotPayload {
    /// Every piece of the state a snapshot keeps, in the order they are written and read.
    ///
    /// **A new piece of state** (say, the notification list) is one new file here plus one
    /// line in this list. The file is an enum conforming to ``JSONSnapshotSection`` — the
    /// piece as JSON of records (`Records/`) and back, through `HeraldState`'s narrow
    /// snapshot API (a `stored…` property and a `restore…` method of plain values, beside
    /// the others in `HeraldState+Snapshot.swift`) — or to ``SnapshotSection`` for a piece
    /// that needs bytes of its own; its `since` is one more than the highest in this list.
    /// The format version follows (``formatVersion``): a snapshot of an earlier version
    /// lacks the section and restores the piece empty, and a heraldd that predates the
    /// piece refuses a snapshot that has it, as of a newer format, instead of losing it.
    ///
    /// **A piece that changes shape** gets a new section (a new name, a higher `since`),
    /// and the old one a `retiredIn` of that version: old snapshots are read through it,
    /// new ones never have it.
    static let sections: [any SnapshotSection.Type] = [
        LeadingChecksumSection.self,
        InteractionsSection.self,
        FocusSection.self,
        SilencedSection.self,
        SummarySection.self,
        AppSettingsSection.self,
        NotificationsSection.self,
        CategoriesSection.self,
        ResponsesSection.self,
        AuthorizationRequestsSection.self,
        FocusesSection.self,
        SummariesSection.self,
        RemovedNotificationsSection.self,
        ConversationsSection.self,
        FocusDigestsSection.self,
        CooldownsSection.self,
        NotificationRecordsSection.self,
    ]

    /// The format version snapshots are written in: the newest section's.
    static let formatVersion: UInt32 = sections.map { $0.since }.max()!

    /// The sections a snapshot of ``formatVersion`` has, in the order written: the leading
    /// checksum, the sections it covers, then the store's (``LeadingChecksumSection``).
    static let writtenSections: [any SnapshotSection.Type] = {
        let written = sections.filter { $0.isIn(version: formatVersion) && $0 != LeadingChecksumSection.self }
        return [LeadingChecksumSection.self] + written.filter { !$0.isStore } + written.filter { $0.isStore }
    }()

    /// The payload of `state`, in the pieces it was made in; record chunks are encoded on
    /// `parallel` when given.
    package static func encode(_ state: HeraldState, parallel: ParallelWork?) throws -> PayloadPieces {
        var pieces = PayloadPieces()
        var leading: Range<Int>?
        for section in writtenSections {
            if section.isStore, let range = leading {
                sealLeadingChecksum(at: range, in: &pieces)
                leading = nil
            }
            pieces.tail.appendString(section.name)
            let lengthAt = pieces.count
            pieces.tail.appendFixed(0, size: 8)
            try section.write(state, to: &pieces, parallel: parallel)
            pieces.setFixed(UInt64(pieces.count - lengthAt - 8), size: 8, at: lengthAt)
            if section == LeadingChecksumSection.self { leading = (lengthAt + 8)..<pieces.count }
        }
        if let range = leading { sealLeadingChecksum(at: range, in: &pieces) }
        return pieces
    }

    /// Seals the leading checksum at `range` over the sections after it: all written before
    /// the store's, in the piece being written, where no chunk was handed over yet.
    private static func sealLeadingChecksum(at range: Range<Int>, in pieces: inout PayloadPieces) {
        precondition(pieces.count == pieces.tail.count, "A section before the store's handed over a chunk.")
        LeadingChecksumSection.seal(&pieces.tail, at: range, covering: pieces.tail.count - range.upperBound)
    }

    /// The state in the payload that fills `file` past its header, of format `version`.
    ///
    /// Every section of that version must be there, once; one it does not have is damage
    /// (the header's version, not a section, says a file is newer). Pieces newer than the
    /// version stay as a new state has them.
    package static func decode(
        _ file: [UInt8], version: UInt32, configuration: CoreConfiguration = CoreConfiguration()
    ) throws(SnapshotFileError) -> HeraldState {
        try decode(file, version: version, configuration: configuration, deferringStore: false).state
    }

    /// The same, with the store's sections (``SnapshotSection/isStore``) left out of the
    /// state when `deferringStore`, for ``StoreSections/restore()`` to restore after: a
    /// start answers what needs neither meanwhile. A snapshot whose other pieces wait for
    /// the store's uids (format 3's host settings) restores it at once all the same.
    static func decode(
        _ file: [UInt8], version: UInt32, configuration: CoreConfiguration, deferringStore: Bool
    ) throws(SnapshotFileError) -> (state: HeraldState, store: [(section: any SnapshotSection.Type, range: Range<Int>)]) {
        let found = try sections(of: file, version: version)
        try checkLeadingChecksum(found, in: file)
        var state = HeraldState(configuration: configuration)
        var store: [(section: any SnapshotSection.Type, range: Range<Int>)] = []
        for (section, range) in found {
            if deferringStore, section.isStore {
                store.append((section, range))
            } else {
                try section.restore(from: file, range: range, into: &state)
            }
        }
        if !state.restoresStoreApart {
            for (section, range) in store { try section.restore(from: file, range: range, into: &state) }
            store = []
        }
        state.finishRestore()
        return (state, store)
    }

    /// Each section of format `version` in the payload that fills `file` past its header,
    /// with where its bytes lie, in the order of ``sections``.
    ///
    /// Every section of that version must be there, once; one it does not have is damage
    /// (the header's version, not a section, says a file is newer).
    static func sections(
        of file: [UInt8], version: UInt32
    ) throws(SnapshotFileError) -> [(section: any SnapshotSection.Type, range: Range<Int>)] {
        try walk(file, range: SnapshotHeader.size..<file.count, version: version, expected: sections.filter { $0.isIn(version: version) })
    }

    /// The sections in `range` of `file`, which must be `expected`'s, each once, in the
    /// order of `expected`.
    private static func walk(
        _ file: [UInt8], range: Range<Int>, version: UInt32, expected: [any SnapshotSection.Type]
    ) throws(SnapshotFileError) -> [(section: any SnapshotSection.Type, range: Range<Int>)] {
        let found = try file.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) -> [(section: any SnapshotSection.Type, range: Range<Int>)] in
                var input = PayloadReader(raw, range: range)
                var found: [(section: any SnapshotSection.Type, range: Range<Int>)] = []
                while !input.isAtEnd {
                    let start = input.cursor
                    let name = try input.string()
                    let range = try input.span(try input.fixed(8))
                    guard let section = expected.first(where: { $0.name == name }) else {
                        throw input.damaged(at: start, "a section named \(name) is none format version \(version) has.")
                    }
                    guard !found.contains(where: { $0.section.name == name }) else {
                        throw input.damaged(at: start, "the section \(name) comes twice.")
                    }
                    found.append((section, range))
                }
                if let missing = expected.first(where: { section in !found.contains { $0.section.name == section.name } }) {
                    throw input.damaged(at: input.cursor, "the payload ends without the section \(missing.name).")
                }
                return found
            }
        }.get()
        return expected.compactMap { section in found.first(where: { $0.section.name == section.name }) }
    }

    /// Checks that the leading checksum of a payload of format 6 or later holds and covers
    /// exactly the sections that are not the store's, which follow it: what a start reads
    /// alone (``leadingState(of:version:configuration:)``) is then what a whole read has.
    static func checkLeadingChecksum(
        _ found: [(section: any SnapshotSection.Type, range: Range<Int>)], in file: [UInt8]
    ) throws(SnapshotFileError) {
        guard let leading = found.first(where: { $0.section == LeadingChecksumSection.self }) else { return }
        let covered = try LeadingChecksumSection.covered(in: file, range: leading.range)
        for (section, range) in found where section != LeadingChecksumSection.self {
            let inside = range.lowerBound >= covered.lowerBound && range.upperBound <= covered.upperBound
            guard section.isStore ? range.lowerBound > covered.upperBound : inside else {
                throw SnapshotFileError(
                    .undecodable,
                    "The checksums hold but the state does not decode: the \(section.name) section lies \(section.isStore ? "inside" : "outside") the bytes the \(LeadingChecksumSection.name) section covers."
                )
            }
        }
    }

    /// The sections of format `version` that are not the store's, restored from the bytes
    /// of `file` (the file's first bytes, up to the end of `covered`) that the leading
    /// checksum covers, that checksum checked: a start's state before its store is read.
    /// Nil when the state's pieces wait for the store (``HeraldState/restoresStoreApart``).
    static func leadingState(
        of file: [UInt8], covered: Range<Int>, version: UInt32, configuration: CoreConfiguration
    ) throws(SnapshotFileError) -> HeraldState? {
        let expected = sections.filter { $0.isIn(version: version) && !$0.isStore && $0 != LeadingChecksumSection.self }
        let found = try walk(file, range: covered, version: version, expected: expected)
        var state = HeraldState(configuration: configuration)
        for (section, range) in found { try section.restore(from: file, range: range, into: &state) }
        guard state.restoresStoreApart else { return nil }
        state.finishRestore()
        return state
    }

    /// `state` as JSON, a member per section, for `heraldctl inspect-snapshot --json`:
    /// dates in ISO 8601, the sections by their ``SnapshotSection/inspectionMember``.
    static func inspectionJSON(_ state: HeraldState) -> [UInt8] {
        let pieces = writtenSections.filter { $0 != LeadingChecksumSection.self }
        let sections = pieces.sorted { $0.inspectionMember < $1.inspectionMember }.map {
            JSONObject.Member(key: $0.inspectionMember, value: $0.inspection(of: state))
        }
        var bytes: [UInt8] = []
        JSONValue.object(JSONObject(sections)).write(to: &bytes)
        return bytes
    }
}
