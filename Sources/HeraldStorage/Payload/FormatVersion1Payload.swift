import FoundationEssentials
import HeraldCore

/// Reads a snapshot of format version 1 (payload encoding 2): what every heraldd wrote
/// until sections replaced it, so what users have on disk. Herald no longer writes it.
///
/// Its payload is one object of the generic binary coder (``TaggedPayload``) with a
/// member per piece: `interactions` (`apps`, the app names, and `recordChunks`, byte
/// strings of records laid out as now, but for their rarely set members), and `focus`,
/// `silenced`, `summary` and `settings`, the same values today's sections keep as JSON —
/// so each is turned into JSON and restored by its section's records.
enum FormatVersion1Payload {
    /// The pieces version 1 kept besides the interactions, by their member's name.
    static let jsonSections: [any JSONSnapshotSection.Type] = [
        FocusSection.self, SilencedSection.self, SummarySection.self, AppSettingsSection.self,
    ]

    static func decode(_ file: [UInt8]) throws(SnapshotFileError) -> HeraldState {
        var state = HeraldState()
        let (names, chunks, pieces) = try file.withUnsafeBytes { raw in
            Result { () throws(SnapshotFileError) in
                let payload = try TaggedPayload(raw, range: SnapshotHeader.size..<raw.count)
                let root = try payload.members(ofKeyedAt: payload.root)
                let expected = Set([InteractionsSection.name] + jsonSections.map { $0.name })
                guard Set(root.keys) == expected else {
                    throw payload.damaged(at: payload.root, "the state holds \(root.keys.sorted()), not \(expected.sorted()).")
                }
                let interactions = try payload.members(ofKeyedAt: root[InteractionsSection.name]!)
                guard let apps = interactions["apps"], let recordChunks = interactions["recordChunks"], interactions.count == 2 else {
                    throw payload.damaged(at: root[InteractionsSection.name]!, "the interactions are not app names and record chunks.")
                }
                let names = try payload.elements(ofUnkeyedAt: apps).map { offset throws(SnapshotFileError) in try payload.string(at: offset) }
                let chunks = try payload.elements(ofUnkeyedAt: recordChunks).map { offset throws(SnapshotFileError) in
                    try payload.byteString(at: offset)
                }
                let pieces = try jsonSections.map { section throws(SnapshotFileError) in
                    (section, root[section.name]!, try payload.json(at: root[section.name]!))
                }
                return (names, chunks, pieces)
            }
        }.get()
        try InteractionsSection.restoreRecords(from: file, appNames: names, chunks: chunks, rareMembers: .tagged, into: &state)
        for (section, offset, json) in pieces {
            try section.restore(json: Array(json)[...], at: offset, into: &state)
        }
        state.finishRestore()
        return state
    }
}
