import HeraldCore

/// A snapshot's interactions and notifications, verified with the rest of the file and
/// left to restore after it: heraldd answers what needs neither while they restore
/// (docs/operations.md, "Exit when idle, and come back").
package struct StoreSections: Sendable {
    let file: [UInt8]
    let sections: [(section: any SnapshotSection.Type, range: Range<Int>)]
    /// The interactions the header counts.
    let interactions: UInt64
    let configuration: CoreConfiguration

    /// The bytes of the sections left to restore.
    package var byteCount: Int { sections.reduce(0) { $0 + $1.range.count } }

    /// The store's sections restored into a state of their own, for
    /// `HeraldState.takeStore(from:)`; throws on damage as a whole restore would have.
    package func restore() throws(SnapshotFileError) -> HeraldState {
        var state = HeraldState(configuration: configuration)
        for (section, range) in sections {
            try section.restore(from: file, range: range, into: &state)
        }
        try SnapshotFile.checkInteractionCount(interactions, state)
        return state
    }
}
