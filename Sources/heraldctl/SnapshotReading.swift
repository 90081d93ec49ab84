import FoundationEssentials
import HeraldCore
import HeraldStorage

/// The one place heraldctl calls HeraldStorage's snapshot reading code, so that a change
/// of its names is a change here only.
enum SnapshotReading {
    struct Summary {
        var version: UInt32
        var encoding: UInt32
        var generation: UInt64
        var createdAt: Date
        var interactions: UInt64
        var payloadLength: UInt64
    }

    /// The header, verified against the whole file (length and checksums).
    static func verify(_ bytes: [UInt8]) -> Result<Summary, any Error> {
        bytes.withUnsafeBytes { raw in
            Result { try summary(SnapshotFile.verify(raw)) }
        }
    }

    /// The header alone, for a file whose payload does not verify.
    static func header(_ bytes: [UInt8]) -> Summary? {
        bytes.withUnsafeBytes { raw in try? summary(SnapshotHeader(parsing: raw)) }
    }

    /// The whole state, decoded, as JSON.
    static func stateJSON(_ bytes: [UInt8]) throws -> (interactions: Int, json: [UInt8]) {
        let (_, state) = try SnapshotFile.decode(bytes)
        return (state.interactionCount, SnapshotFile.inspectionJSON(state))
    }

    static let encodingNames = SnapshotHeader.encodingNames

    private static func summary(_ header: SnapshotHeader) -> Summary {
        Summary(
            version: header.version, encoding: header.encoding, generation: header.generation, createdAt: header.createdAt,
            interactions: header.interactions, payloadLength: header.payloadLength
        )
    }
}
