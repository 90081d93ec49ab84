import Foundation
import HeraldCore
import HeraldProtocol
import Testing

@testable import HeraldStorage

/// A state with `count` messages, donated one second apart from `start`.
func stateWithMessages(_ count: Int, start: Date = Date(timeIntervalSince1970: 1_800_000_000)) throws -> HeraldState {
    var state = HeraldState()
    let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
    for index in 0..<count {
        let interaction = Interaction(
            identifier: "m\(index)",
            direction: .incoming,
            intent: .sendMessage(
                SendMessageIntent(
                    sender: Person(handle: PersonHandle(value: "ann@example.org", type: .emailAddress), displayName: "Ann"),
                    recipients: [Person(displayName: "Me")],
                    content: "Lunch?",
                    conversationIdentifier: "c1"
                )
            )
        )
        _ = try state.donate(
            DonateParams(app: "org.example.chat", interaction: interaction),
            caller: caller,
            now: start.addingTimeInterval(Double(index))
        )
    }
    return state
}

/// The bytes of a snapshot file of `state`.
func snapshotBytes(_ state: HeraldState, generation: UInt64 = 7) throws -> [UInt8] {
    let file = try SnapshotFile(encoding: state, generation: generation, now: Date(timeIntervalSince1970: 1_800_000_100))
    return file.header.bytes + file.payload
}

@Suite("Snapshot file format")
struct SnapshotFileTests {
    @Test("CRC-32C matches the standard check value")
    func crcCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum(Array(repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    @Test("A round trip keeps the interactions and the header's figures")
    func roundTrip() throws {
        let state = try stateWithMessages(3)
        let bytes = try snapshotBytes(state)
        let (header, restored) = try SnapshotFile.decode(bytes)
        #expect(header.generation == 7)
        #expect(header.interactions == 3)
        #expect(header.version == SnapshotHeader.currentVersion)
        #expect(header.createdAt == Date(timeIntervalSince1970: 1_800_000_100))
        #expect(Int(header.payloadLength) == bytes.count - SnapshotHeader.size)
        #expect(restored.interactionCount == 3)
        #expect(Array(bytes[0..<8]) == Array("HERALDSS".utf8))
        #expect(try SnapshotFile.decode(try snapshotBytes(restored)).state.interactionCount == 3)
    }

    @Test("A truncated file is damage, at any length")
    func truncation() throws {
        let bytes = try snapshotBytes(try stateWithMessages(2))
        for length in [0, 7, SnapshotHeader.size - 1, SnapshotHeader.size, bytes.count - 1] {
            #expect(throws: SnapshotFileError.self) { try SnapshotFile.decode(Array(bytes[0..<length])) }
            do {
                _ = try SnapshotFile.decode(Array(bytes[0..<length]))
            } catch {
                #expect(error.isDamage, "length \(length): \(error)")
            }
        }
    }

    @Test("A flipped bit in the payload or the header fails its checksum")
    func bitFlip() throws {
        let bytes = try snapshotBytes(try stateWithMessages(2))
        for offset in [16, 40, 48, SnapshotHeader.size, SnapshotHeader.size + 100, bytes.count - 1] {
            var damaged = bytes
            damaged[offset] ^= 0x04
            do {
                _ = try SnapshotFile.decode(damaged)
                Issue.record("offset \(offset) went unnoticed")
            } catch {
                #expect(error.code == .checksumMismatch, "offset \(offset): \(error)")
            }
        }
    }

    @Test("A newer format version is unsupported, not damage")
    func newerVersion() throws {
        let bytes = resealedHeader(try snapshotBytes(try stateWithMessages(1))) { $0[8] = 5 }
        do {
            _ = try SnapshotFile.decode(bytes)
            Issue.record("version 5 was read")
        } catch {
            #expect(error.code == .unsupportedVersion)
            #expect(!error.isDamage)
        }
    }

    @Test("Something else entirely is not a snapshot")
    func notASnapshot() throws {
        do {
            _ = try SnapshotFile.decode(Array(String(repeating: "{}", count: 40).utf8))
            Issue.record("read as a snapshot")
        } catch {
            #expect(error.code == .notASnapshot)
        }
    }
}
