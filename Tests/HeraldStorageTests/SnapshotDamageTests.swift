import Foundation
import HeraldCore
import HeraldProtocol
import Logging
import Testing

@testable import HeraldStorage

/// `bytes` with the header changed by `edit` and its checksum made to hold again: damage
/// that only the fields' own checks can catch.
func resealedHeader(_ bytes: [UInt8], _ edit: (inout [UInt8]) -> Void) -> [UInt8] {
    var bytes = bytes
    edit(&bytes)
    let checksum = CRC32C.checksum(Array(bytes[0..<52]))
    withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(52..<56, with: $0) }
    return bytes
}

/// Writes `value` little-endian at `offset` of `bytes`.
func put<T: FixedWidthInteger>(_ value: T, at offset: Int, in bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + MemoryLayout<T>.size), with: $0) }
}

/// Every way a snapshot file can be damaged is refused as damage by the one reader,
/// ``SnapshotFile/decode(_:)``; recovery then falls back to `.previous`, and the next
/// generation is a number never used before.
@Suite("Snapshot damage")
struct SnapshotDamageTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// Decodes `bytes` and returns the error; records an issue if it loads.
    static func refusal(_ bytes: [UInt8], _ what: @autoclosure () -> String) -> SnapshotFileError? {
        do {
            _ = try SnapshotFile.decode(bytes)
            Issue.record("\(what()) loaded")
            return nil
        } catch {
            return error
        }
    }

    @Test("Every bit of a small snapshot flipped, the version's included, is damage")
    func everyBitFlipped() throws {
        let bytes = try snapshotBytes(try stateWithMessages(2))
        var notDamage: [String] = []
        for offset in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[offset] ^= 1 << bit
                guard let error = Self.refusal(damaged, "bit \(bit) of byte \(offset)") else { continue }
                if !error.isDamage { notDamage.append("bit \(bit) of byte \(offset): \(error)") }
            }
        }
        #expect(notDamage.isEmpty, "\(notDamage.prefix(5))")
    }

    @Test("A damaged version byte is damage; a newer version with a sound header is unsupported")
    func versionByte() throws {
        let bytes = try snapshotBytes(try stateWithMessages(1))
        let newerVersion = UInt8(SnapshotHeader.currentVersion + 1)
        for version: UInt8 in [0, 1, 2, 3, newerVersion, 9, 99, 255] {
            var damaged = bytes
            damaged[8] = version
            #expect(Self.refusal(damaged, "version \(version)")?.code == .checksumMismatch)
        }
        let newer = resealedHeader(bytes) { $0[8] = newerVersion }
        #expect(Self.refusal(newer, "version \(newerVersion), resealed")?.code == .unsupportedVersion)
    }

    @Test("Truncated at every length — each section boundary among them — is damage")
    func everyTruncation() throws {
        let bytes = try snapshotBytes(try stateWithMessages(3))
        let sound = bytes.indices.allSatisfy { length in
            Self.refusal(Array(bytes.prefix(length)), "the first \(length) bytes")?.isDamage == true
        }
        #expect(sound)
    }

    @Test("A wrong payload length, even with the header resealed, is damage and reserves nothing")
    func wrongLength() throws {
        let bytes = try snapshotBytes(try stateWithMessages(2))
        let length = UInt64(bytes.count - SnapshotHeader.size)
        for claimed in [0, length - 1, length + 1, UInt64(Int.max), UInt64.max] {
            let damaged = resealedHeader(bytes) { put(claimed, at: 40, in: &$0) }
            #expect(Self.refusal(damaged, "length \(claimed)")?.isDamage == true)
        }
    }

    @Test("A huge interaction count in the header is damage")
    func hugeCount() throws {
        let bytes = try snapshotBytes(try stateWithMessages(2))
        for claimed in [UInt64(3), UInt64(UInt32.max), UInt64.max] {
            let damaged = resealedHeader(bytes) { put(claimed, at: 32, in: &$0) }
            #expect(Self.refusal(damaged, "count \(claimed)")?.code == .undecodable)
        }
    }

    @Test("Damage inside a sealed payload is refused as undecodable, whatever byte it is")
    func sealedPayloadDamage() throws {
        let bytes = try snapshotBytes(try stateWithMessages(2))
        var crashedOrWrong: [Int] = []
        for offset in SnapshotHeader.size..<bytes.count {
            var damaged = bytes
            damaged[offset] ^= 0xFF
            let payload = Array(damaged[SnapshotHeader.size...])
            let sealed = resealedHeader(damaged) { put(CRC32C.checksum(payload), at: 48, in: &$0) }
            do {
                let (_, state) = try SnapshotFile.decode(sealed)
                // What loads re-encodes into a snapshot that loads.
                let again = try SnapshotFile.decode(try snapshotBytes(state))
                if again.state.interactionCount != state.interactionCount { crashedOrWrong.append(offset) }
            } catch let error as SnapshotFileError {
                if !error.isDamage { crashedOrWrong.append(offset) }
            }
        }
        #expect(crashedOrWrong.isEmpty, "\(crashedOrWrong)")
    }

    /// A folder with generations 1, 2 and 3 written; returns the store.
    static func threeGenerations(_ folder: TemporaryFolder) throws -> SnapshotStore {
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        let writer = SnapshotWriter(store: store, generation: 0)
        for count in 1...3 {
            _ = try writer.write(try stateWithMessages(count), changes: UInt64(count))
        }
        return store
    }

    /// `bytes` with the byte at `offset` (from the end when negative) xored with `mask`.
    static func flipping(_ offset: Int, _ mask: UInt8) -> @Sendable ([UInt8]) -> [UInt8] {
        { bytes in
            var damaged = bytes
            damaged[offset >= 0 ? offset : bytes.count + offset] ^= mask
            return damaged
        }
    }

    /// The kinds of damage recovery meets, applied to the whole file's bytes.
    static let damages: [(name: String, apply: @Sendable ([UInt8]) -> [UInt8])] = [
        ("version byte", flipping(8, 0x01)),
        ("header checksum", flipping(53, 0x40)),
        ("generation field", flipping(16, 0x02)),
        ("magic", flipping(0, 0x20)),
        ("payload byte", flipping(-40, 0x10)),
        ("cut inside the header", { Array($0.prefix(30)) }),
        ("cut after the header", { Array($0.prefix(SnapshotHeader.size)) }),
        ("cut inside the payload", { Array($0.prefix($0.count - 7)) }),
        ("emptied", { _ in [] }),
        ("resealed wrong length", { b in resealedHeader(b) { put(UInt64(1 << 40), at: 40, in: &$0) } }),
    ]

    @Test("Each damage to the current snapshot falls back to the previous one, and the next generation is new")
    func fallsBackAndNeverRepeatsAGeneration() throws {
        for damage in Self.damages {
            for keepsGenerationRecord in [true, false] {
                let folder = TemporaryFolder()
                defer { folder.cleanUp() }
                let store = try Self.threeGenerations(folder)
                let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: store.currentPath)))
                try Data(damage.apply(bytes)).write(to: URL(fileURLWithPath: store.currentPath))
                if !keepsGenerationRecord { unlink(store.generationPath) }

                let recovery = try store.recover(discardDamaged: false, logger: logger)
                #expect(recovery.header?.generation == 2, "\(damage.name)")
                #expect(recovery.state.interactionCount == 2, "\(damage.name)")
                #expect(recovery.setAside.count == 1, "\(damage.name)")
                let writer = SnapshotWriter(
                    store: store,
                    generation: recovery.header?.generation ?? 0,
                    highestGeneration: recovery.highestGeneration
                )
                let next = try writer.write(recovery.state, changes: nil)
                // Without state.generation, a header too damaged to read cannot tell its number:
                // then the next one is at least new to every readable file.
                let readable = SnapshotStore.headerGeneration(recovery.setAside[0].path)
                if keepsGenerationRecord || readable != nil {
                    #expect(next.generation == 4, "\(damage.name), record kept: \(keepsGenerationRecord)")
                } else {
                    #expect(next.generation == 3, "\(damage.name)")
                }
                #expect(try SnapshotFile.decode(try SnapshotStore.readAll(store.currentPath)).header.generation == next.generation)
            }
        }
    }

    @Test("Generations keep rising across damage, fallbacks and restarts")
    func generationsNeverRepeat() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = SnapshotStore(folder: folder.path)
        var used: [UInt64] = []
        for round in 0..<6 {
            let recovery = try store.recover(discardDamaged: true, logger: logger)
            let writer = SnapshotWriter(
                store: store,
                generation: recovery.header?.generation ?? 0,
                highestGeneration: recovery.highestGeneration
            )
            for count in 1...2 {
                used.append(try writer.write(try stateWithMessages(round + count), changes: nil).generation)
            }
            // Damage the current one's header past reading: only state.generation remembers it.
            var bytes = try SnapshotStore.readAll(store.currentPath)
            bytes[20] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: store.currentPath))
        }
        #expect(used == Array(1...12), "\(used)")
    }
}
