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

    @Test("A store whose records do not match the header's count is damage, found when it restores")
    func damageInTheStoreIsFoundApart() throws {
        let state = try F.fullState()
        let payload = try SnapshotPayload.encode(state, parallel: nil)
        let file = F.sealed(payload, interactions: state.interactionCount + 1)
        let (_, _, store) = try SnapshotFile.decode(file, configuration: CoreConfiguration(), deferringStore: true)
        #expect(throws: SnapshotFileError.self) { try #require(store).restore() }
        #expect(throws: SnapshotFileError.self) { try SnapshotFile.decode(file) }
    }
}
