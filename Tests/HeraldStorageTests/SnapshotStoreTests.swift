import Foundation
import HeraldCore
import HeraldProtocol
import Logging
import Testing

@testable import HeraldStorage

#if canImport(Glibc)
import Glibc
#endif

/// A fresh state folder under the temporary directory, removed by `cleanUp`.
struct TemporaryFolder {
    let path =
        FileManager.default.temporaryDirectory.appendingPathComponent("herald-store-\(UUID().uuidString.prefix(8))")
        .path + "/state"

    func cleanUp() { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }

    func files() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    func mode(_ name: String) -> mode_t {
        var status = stat()
        _ = stat(name.hasPrefix("/") ? name : path + "/" + name, &status)
        return status.st_mode & 0o777
    }
}

@Suite("Snapshot store: atomic writes and recovery")
struct SnapshotStoreTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test("Writes keep the current and the previous generation, 0600 in a 0700 folder")
    func writesTwoGenerations() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        let writer = SnapshotWriter(store: store, generation: 0)
        _ = try writer.write(try stateWithMessages(1), changes: 1)
        let second = try writer.write(try stateWithMessages(2), changes: 2)
        #expect(second.generation == 2)
        #expect(folder.files() == ["state.generation", "state.snapshot", "state.snapshot.previous"])
        #expect(folder.mode(folder.path) == 0o700)
        #expect(folder.mode("state.generation") == 0o600)
        #expect(folder.mode("state.snapshot") == 0o600)
        #expect(folder.mode("state.snapshot.previous") == 0o600)
        #expect(!writer.isStale(changes: 2))
        #expect(writer.isStale(changes: 3))

        let recovery = try store.recover(discardDamaged: false, logger: logger)
        #expect(recovery.header?.generation == 2)
        #expect(recovery.state.interactionCount == 2)
    }

    @Test("An empty folder starts empty")
    func emptyFolder() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let recovery = try SnapshotStore(folder: folder.path).recover(discardDamaged: false, logger: logger)
        #expect(recovery.header == nil)
        #expect(recovery.state.interactionCount == 0)
        #expect(!recovery.needsSnapshot)
    }

    @Test("A damaged current snapshot is set aside and the previous one loaded")
    func fallsBackToPrevious() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        let writer = SnapshotWriter(store: store, generation: 0)
        _ = try writer.write(try stateWithMessages(1), changes: 1)
        _ = try writer.write(try stateWithMessages(2), changes: 2)
        try truncate(store.currentPath, by: 10)

        let recovery = try store.recover(discardDamaged: false, logger: logger)
        #expect(recovery.header?.generation == 1)
        #expect(recovery.state.interactionCount == 1)
        #expect(recovery.needsSnapshot)
        #expect(recovery.setAside.count == 1)
        let files = folder.files()
        #expect(files.count == 3)
        #expect(files.contains("state.snapshot.previous"))
        #expect(files.contains { $0.hasPrefix("state.snapshot.damaged-") })
    }

    @Test("No good snapshot left: refuse and touch nothing, unless told to discard")
    func refusesWhenNothingLoads() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        let writer = SnapshotWriter(store: store, generation: 0)
        _ = try writer.write(try stateWithMessages(1), changes: 1)
        _ = try writer.write(try stateWithMessages(2), changes: 2)
        try truncate(store.currentPath, by: 1)
        try truncate(store.previousPath, by: 1)

        #expect(throws: RecoveryRefusal.self) { try store.recover(discardDamaged: false, logger: logger) }
        #expect(folder.files() == ["state.generation", "state.snapshot", "state.snapshot.previous"])

        let recovery = try store.recover(discardDamaged: true, logger: logger)
        #expect(recovery.state.interactionCount == 0)
        #expect(recovery.needsSnapshot)
        #expect(recovery.highestGeneration == 2)
        let snapshots = folder.files().filter { $0.hasPrefix("state.snapshot") }
        #expect(snapshots.allSatisfy { $0.contains(".damaged-") })
        #expect(snapshots.count == 2)
    }

    @Test("A newer format version is refused even when the previous one is good")
    func refusesNewerVersion() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        let writer = SnapshotWriter(store: store, generation: 0)
        _ = try writer.write(try stateWithMessages(1), changes: 1)
        _ = try writer.write(try stateWithMessages(2), changes: 2)
        let bytes = resealedHeader(try Array(Data(contentsOf: URL(fileURLWithPath: store.currentPath)))) { $0[8] = 9 }
        try Data(bytes).write(to: URL(fileURLWithPath: store.currentPath))

        #expect(throws: RecoveryRefusal.self) { try store.recover(discardDamaged: false, logger: logger) }
        let recovery = try store.recover(discardDamaged: true, logger: logger)
        #expect(recovery.header?.generation == 1)
        #expect(folder.files().contains { $0.hasPrefix("state.snapshot.unsupported-") })
        // The newer file's generation is above every number this one may take.
        #expect(recovery.highestGeneration == 2)
    }

    @Test("One lock per state folder: a second holder is refused, named by its pid, until the first lets go")
    func folderLock() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        try SnapshotStore(folder: folder.path).prepareFolder()
        var first: StateFolderLock? = try StateFolderLock(folder: folder.path, pid: 4242)
        #expect(folder.mode("state.lock") == 0o600)
        do {
            _ = try StateFolderLock(folder: folder.path)
            Issue.record("a second lock was taken")
        } catch {
            #expect(error.holder == 4242)
            #expect(error.description.contains("pid 4242"), "\(error)")
        }
        #expect(first != nil)
        first = nil
        let second = try StateFolderLock(folder: folder.path)
        #expect(try String(contentsOfFile: second.path, encoding: .utf8) == "\(getpid())\n")
    }

    @Test("A failed write leaves the current snapshot as it was")
    func failedWriteKeepsCurrent() throws {
        let folder = TemporaryFolder()
        defer { folder.cleanUp() }
        let store = SnapshotStore(folder: folder.path)
        try store.prepareFolder()
        let writer = SnapshotWriter(store: store, generation: 0)
        _ = try writer.write(try stateWithMessages(1), changes: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.currentPath))
        // A directory where the temporary file goes makes its creation fail.
        try FileManager.default.createDirectory(atPath: store.temporaryPath + "/x", withIntermediateDirectories: true)
        #expect(throws: SnapshotFileError.self) { try writer.write(try stateWithMessages(2), changes: 2) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.currentPath)) == before)
        #expect(writer.isStale(changes: 2))
        #expect(writer.statsMember.objectValue?["failures"] == 1)
    }

    private func truncate(_ path: String, by bytes: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count - bytes).write(to: URL(fileURLWithPath: path))
    }
}
