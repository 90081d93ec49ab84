import Foundation
import HeraldProtocol
import Testing

@testable import HeraldCore
@testable import HeraldStorage

/// A snapshot read as a large start reads it: everything but the store first, the store
/// apart, then put together (heraldd's `takeStore`).
@Suite("Snapshot store restored apart")
struct StoreSectionsTests {
    typealias F = SnapshotFixtures

    @Test("The rest without the store, the store apart, put together: the state read whole")
    func apartThenTogetherIsWhole() throws {
        let file = try F.file(try F.fullState())
        let whole = try SnapshotFile.decode(file).state
        let (_, early, store) = try SnapshotFile.decode(file, configuration: CoreConfiguration(), deferringStore: true)
        let apart = try #require(store)
        #expect(early.interactionCount == 0 && early.notificationCount == 0)
        #expect(whole.interactionCount == 5)
        var together = early
        var restored = try apart.restore()
        together.takeStore(from: &restored)
        #expect(try F.json(together) == F.json(whole))
    }

    /// A start's read of `file`: the leading sections, then the store apart, put together.
    static func readApart(_ file: [UInt8]) throws -> (early: HeraldState, together: HeraldState, storeBytes: Int) {
        let leading = try #require(try SnapshotFile.decodeLeading(OpenSnapshotFile(bytes: file), configuration: CoreConfiguration()))
        var together = leading.state
        var restored = try leading.store.restore()
        together.takeStore(from: &restored)
        return (leading.state, together, leading.store.byteCount)
    }

    @Test("A start reads the sections before the store alone; the store read after completes the state read whole")
    func leadingThenStoreIsWhole() throws {
        let file = try F.file(try F.fullState())
        let whole = try SnapshotFile.decode(file).state
        let (early, together, storeBytes) = try Self.readApart(file)
        #expect(early.interactionCount == 0 && early.notificationCount == 0)
        #expect(try F.json(together) == F.json(whole))
        // The store's sections come last, after every section the leading checksum covers.
        let names = try F.sections(of: file).map(\.name)
        #expect(names.first == LeadingChecksumSection.name)
        #expect(Array(names.suffix(2)) == [InteractionsSection.name, NotificationRecordsSection.name])
        #expect(storeBytes > 0 && storeBytes < file.count)
    }

    @Test("Damage in the store passes the start's read and is found by the store's restore; damage before it, at once")
    func damageIsFoundWhereItLies() throws {
        let file = try F.file(try F.fullState())
        var inStore = file
        inStore[file.count - 3] ^= 0x40
        let leading = try #require(try SnapshotFile.decodeLeading(OpenSnapshotFile(bytes: inStore), configuration: CoreConfiguration()))
        #expect(throws: SnapshotFileError.self) { try leading.store.restore() }
        #expect(throws: SnapshotFileError.self) { try SnapshotFile.decode(inStore) }

        // A byte of the Focus section, which the leading checksum covers.
        let focusAt = try #require(Self.offset(of: FocusesSection.name, in: file))
        var inLeading = file
        inLeading[focusAt + 20] ^= 0x40
        let error = #expect(throws: SnapshotFileError.self) {
            try SnapshotFile.decodeLeading(OpenSnapshotFile(bytes: inLeading), configuration: CoreConfiguration())
        }
        #expect(error?.code == .checksumMismatch, "\(String(describing: error))")
    }

    @Test("Every byte flipped and every truncation: the start's read refuses what the whole read refuses")
    func startAndWholeReadsAgreeOnDamage() throws {
        let file = try F.file(try F.fullState())
        var damaged: [[UInt8]] = (0..<file.count).map { index in
            var bytes = file
            bytes[index] ^= 0x01
            return bytes
        }
        damaged += stride(from: 0, to: file.count, by: 7).map { Array(file[0..<$0]) }
        var refusedApart = 0
        for bytes in damaged {
            let wholeTakes = (try? SnapshotFile.decode(bytes)) != nil
            let apartTakes = (try? Self.readApart(bytes)) != nil
            #expect(wholeTakes == apartTakes)
            if !apartTakes { refusedApart += 1 }
        }
        #expect(refusedApart > file.count / 2)
    }

    @Test("A file of format 5, without the leading checksum, is read whole at a start, as before")
    func formatFiveIsReadWhole() throws {
        let state = try F.fullState()
        let file = try F.file(state)
        let sections = try F.sectionsOfFormat6(state).filter { $0.name != LeadingChecksumSection.name }
        let version5 = F.sealed(F.payload(sections), interactions: state.interactionCount, version: 5)
        #expect(try SnapshotFile.decodeLeading(OpenSnapshotFile(bytes: version5), configuration: CoreConfiguration()) == nil)
        let (header, whole) = try SnapshotFile.decode(version5)
        #expect(header.version == 5)
        #expect(try F.json(whole) == F.json(try SnapshotFile.decode(file).state))
    }

    /// Where the bytes of the section named `name` begin in `file`.
    static func offset(of name: String, in file: [UInt8]) -> Int? {
        let marker = [UInt8(name.utf8.count)] + Array(name.utf8)
        guard let start = (0...(file.count - marker.count)).first(where: { Array(file[$0..<($0 + marker.count)]) == marker }) else {
            return nil
        }
        return start + marker.count + 8
    }

    @Test("A store whose records do not match the header's count is damage, found when it restores")
    func damageInTheStoreIsFoundApart() throws {
        let state = try F.fullState()
        let payload = try SnapshotPayload.encode(state, parallel: nil).joined()
        let file = F.sealed(payload, interactions: state.interactionCount + 1)
        let (_, _, store) = try SnapshotFile.decode(file, configuration: CoreConfiguration(), deferringStore: true)
        #expect(throws: SnapshotFileError.self) { try #require(store).restore() }
        #expect(throws: SnapshotFileError.self) { try SnapshotFile.decode(file) }
    }
}
