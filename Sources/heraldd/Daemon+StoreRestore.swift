import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import HeraldCore
import HeraldServer
import HeraldStorage
import HeraldSystemd

/// A start that answers before a large store is in: the snapshot is read as far as its
/// interactions and notifications (format 6 and later; older formats are read and
/// verified whole), everything but those restored, and heraldd serves the methods that need
/// neither (`HeraldMethod.needsStore`) while the rest is read, verified and restored on a
/// thread of its own (docs/operations.md, "Exit when idle, and come back").
extension Daemon {
    /// The store's bytes from which it restores after the first answers: below, it takes
    /// milliseconds, and restores before serving as the rest does.
    static let storeRestoredApartFrom = 1 << 20

    /// The newest good snapshot, its interactions and notifications left in
    /// ``Recovery/store`` when they are large and nothing needs them before the first
    /// answer: no change log to replay onto them, no file set aside, no snapshot to write
    /// at once. Otherwise they are restored here, as before; damage found in them then sets
    /// the file aside and recovers again, whole, as damage found anywhere else does.
    func recover(_ store: SnapshotStore, health: PersistenceHealth) throws -> Recovery {
        var recovery = try recoverOrRefuse(store, deferringStore: true)
        guard let pending = recovery.store else { return recovery }
        if pending.byteCount >= Self.storeRestoredApartFrom, recovery.setAside.isEmpty, !health.holdsPreviousRecord,
            health.failure == nil
        {
            // Headers and sizes only: a replay reads and checks the whole log, once, later.
            if !ChangeLogFolder(folder: storage.folder).holdsRecords(after: recovery.header?.generation ?? 0) { return recovery }
        }
        recovery.store = nil
        do {
            var restored = try pending.restore()
            recovery.state.takeStore(from: &restored)
            return recovery
        } catch {
            return try recoverOrRefuse(store, deferringStore: false)
        }
    }

    private func recoverOrRefuse(_ store: SnapshotStore, deferringStore: Bool) throws -> Recovery {
        do {
            return try store.recover(
                discardDamaged: storage.discardDamagedState, configuration: coreConfiguration(), deferringStore: deferringStore,
                logger: logger)
        } catch {
            throw refuse((error as? RecoveryRefusal)?.description ?? "heraldd cannot use its state folder: \(error)")
        }
    }

    /// Restores `pending` into `state` on a thread of its own, does what fell due while
    /// heraldd was stopped, then lets the requests that wait for the store go on.
    ///
    /// Damage in the store (its bytes changed on disk, or a file no heraldd wrote) is found
    /// only now, after answers were given from the rest of it, which its own checksum held:
    /// heraldd sets the file aside, says so at critical priority and exits 1, and the next
    /// start recovers from `state.snapshot.previous`. What was changed meanwhile is lost
    /// unless the change log kept it.
    func restoreApart(_ pending: StoreSections, into state: SharedState, server: HeraldServer, snapshot path: String?) {
        let writer = self.writer
        let clock = self.clock
        let folder = storage.folder
        WorkThread.run(named: "herald-restore", priority: .normal) {
            do throws(SnapshotFileError) {
                state.takeStore(from: try pending.restore())
            } catch {
                let aside = path.flatMap { SnapshotStore(folder: folder).setAsideDamaged($0, now: clock.now()) }
                if let aside { writer.submit(PersistenceJournal.setAsideEntry(aside, error)) }
                let damage = error.code == .undecodable ? "do not decode although its checksums hold" : "are damaged"
                let message =
                    "heraldd stops: the interactions or notifications of \(path ?? "its snapshot") \(damage) (\(error.reason)); the next start recovers from the previous snapshot"
                writer.submit(Self.lifecycleEntry(message, id: JournalMessageID.startRefused, priority: .critical))
                writer.flush(timeout: .seconds(2))
                writeToStandardError("heraldd: \(message)\n")
                _exit(1)
            }
            _ = server.runDueWork(now: clock.now())
            state.storeRestore.finish()
        }
    }
}
