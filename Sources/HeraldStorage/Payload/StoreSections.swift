import HeraldCore

/// A snapshot's interactions and notifications, left out of a start's state to restore
/// after heraldd begins answering (``SnapshotFile/decodeLeading(_:configuration:)``,
/// ``SnapshotFile/decode(_:configuration:deferringStore:)``).
package struct StoreSections: Sendable {
    private enum Bytes: Sendable {
        /// A file read and checked whole, and where the store's sections lie in it.
        case read(file: [UInt8], sections: [(section: any SnapshotSection.Type, range: Range<Int>)], interactions: UInt64)
        /// A file read and checked up to `from`, its header `header`: the rest is read,
        /// and the whole checked, when the store restores.
        case unread(OpenSnapshotFile, header: SnapshotHeader, from: Int)
    }

    private let bytes: Bytes
    let configuration: CoreConfiguration

    init(
        read file: [UInt8], sections: [(section: any SnapshotSection.Type, range: Range<Int>)], interactions: UInt64,
        configuration: CoreConfiguration
    ) {
        bytes = .read(file: file, sections: sections, interactions: interactions)
        self.configuration = configuration
    }

    init(unread source: OpenSnapshotFile, header: SnapshotHeader, from offset: Int, configuration: CoreConfiguration) {
        bytes = .unread(source, header: header, from: offset)
        self.configuration = configuration
    }

    /// The bytes of the sections left to restore.
    package var byteCount: Int {
        switch bytes {
        case .read(file: _, let sections, interactions: _): sections.reduce(0) { $0 + $1.range.count }
        case .unread(let source, _, let offset): source.size - offset
        }
    }

    /// The store's sections restored into a state of their own, for
    /// `HeraldState.takeStore(from:)`; throws on damage as a whole restore would have.
    /// A file read only up to the store is read now, and its payload's checksum checked.
    package func restore() throws(SnapshotFileError) -> HeraldState {
        switch bytes {
        case .read(let file, let sections, let interactions):
            return try restore(sections, of: file, interactions: interactions)
        case .unread(let source, let header, _):
            let file = try source.prefix(source.size)
            let verified = try file.withUnsafeBytes { raw in Result { () throws(SnapshotFileError) in try SnapshotFile.verify(raw) } }.get()
            guard verified == header else {
                throw SnapshotFileError(.checksumMismatch, "The header read again is not the one read at the start.")
            }
            let found = try SnapshotPayload.sections(of: file, version: header.version)
            try SnapshotPayload.checkLeadingChecksum(found, in: file)
            return try restore(found.filter { $0.section.isStore }, of: file, interactions: header.interactions)
        }
    }

    private func restore(
        _ sections: [(section: any SnapshotSection.Type, range: Range<Int>)], of file: [UInt8], interactions: UInt64
    ) throws(SnapshotFileError) -> HeraldState {
        var state = HeraldState(configuration: configuration)
        for (section, range) in sections {
            try section.restore(from: file, range: range, into: &state)
        }
        try SnapshotFile.checkInteractionCount(interactions, state)
        return state
    }
}
