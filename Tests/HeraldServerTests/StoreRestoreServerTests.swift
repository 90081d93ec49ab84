import Foundation
import HeraldCore
import HeraldProtocol
import HeraldStorage
import HeraldTesting
import Logging
import NIOConcurrencyHelpers
import Testing

@testable import HeraldServer

/// A start that answers before its store is in: a snapshot read with its interactions and
/// notifications left apart, served in process over a Unix socket, the store restored when
/// the test says so (its gate).
@Suite("The store restored after the first answers, in process over a Unix socket")
struct StoreRestoreServerTests {
    static let executor = DedicatedExecutor(label: "herald-store-restore-tests")
    static let notifications = 20_000
    static let owner: UInt32 = 1000

    /// A snapshot of `notifications` notifications in uid 1000's list and a Focus defined,
    /// read as a start reads it: everything but the store, and the store apart.
    static func snapshotReadApart() throws -> (state: HeraldState, store: StoreSections) {
        var configuration = CoreConfiguration()
        configuration.maxNotificationsPerUID = notifications * 2
        configuration.maxNotificationBytesPerUID = 1 << 40
        var whole = HeraldState(configuration: configuration)
        let caller = Caller(uid: owner, gid: owner, pid: 1, isAdministrator: false)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<notifications {
            _ = try whole.updateContent(
                UpdateContentParams(
                    app: "org.example.news", identifier: "n\(index)", content: NotificationContent(title: "Story \(index)", body: "b")),
                caller: caller, now: start.addingTimeInterval(Double(index) / 1000))
        }
        _ = try whole.defineFocus(
            try DefineFocusMethod.decodeParams(.object(["focus": ["name": "Work"]])), caller: caller, now: start)
        let file = try SnapshotFile(encoding: whole, generation: 1, now: start)
        let (_, state, store) = try SnapshotFile.decode(file.header.bytes + file.payload, configuration: configuration, deferringStore: true)
        return (state, try #require(store))
    }

    @Test("get-focus is answered while the store waits at the gate; list-notifications waits for it and lists every one")
    func answersBeforeTheStoreAndWaitsForIt() async throws {
        let (early, store) = try Self.snapshotReadApart()
        #expect(early.notificationCount == 0)
        let shared = SharedState(early, storeRestore: StoreRestore(isFinished: false))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-restore-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socketPath = folder.appendingPathComponent("herald.sock").path
        let ready = NIOLockedValueBox(false)
        let server = HeraldServer(
            configuration: ServerConfiguration(listening: .path(socketPath, mode: 0o600), threads: 2),
            environment: MethodEnvironment(
                state: shared, clock: SystemClock(), statistics: ServerStatistics(), openRPCDocument: ["openrpc": "1.3.2"]),
            recorder: CollectingRecorder(),
            logger: Logger(label: "test"),
            onReady: { _ in ready.withLockedValue { $0 = true } }
        )
        let serving = Task(executorPreference: Self.executor) { try await server.run() }
        defer { serving.cancel() }
        let deadline = ContinuousClock.now + .seconds(60)
        while !ready.withLockedValue({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }

        // Sent before the store is in: waits for it, off the event loop.
        let lister = try UnixSocketClient(path: socketPath)
        try lister.send(#"{"jsonrpc":"2.0","id":1,"method":"list-notifications","params":{"uid":1000}}"# + "\n")
        // Answered with the gate shut: were it held back, the test would stop here.
        let focus = try UnixSocketClient(path: socketPath).call("get-focus", ["uid": 1000])
        #expect(focus[pointer: "/result/focuses/0/name"] == "Work", "\(focus)")
        #expect(!shared.storeRestore.isFinished)

        // The gate opens: the store goes in, as the daemon's restore thread puts it.
        shared.takeStore(from: try store.restore())
        shared.storeRestore.finish()

        var identifiers = Set<String>()
        var page = try #require(try lister.readJSON(timeout: 60))
        while true {
            let listed = try #require(page[pointer: "/result/notifications"]?.arrayValue, "\(page.compactText.prefix(300))")
            for notification in listed { identifiers.insert(notification[pointer: "/identifier"]?.stringValue ?? "") }
            guard let cursor = page[pointer: "/result/nextCursor"]?.stringValue else { break }
            page = try lister.call("list-notifications", ["uid": 1000, "cursor": .string(cursor)])
        }
        #expect(identifiers.count == Self.notifications)
        #expect(identifiers.contains("n0") && identifiers.contains("n\(Self.notifications - 1)"))
    }

    @Test("The descriptors that need no store are the Focus, summary, settings and discovery reads and the Focus changes")
    func theDescriptorsSayWhichMethodsNeedNoStore() {
        let storeFree = Set(HeraldMethods.all.filter { !$0.needsStore }.map { $0.name })
        #expect(
            storeFree == [
                "define-focus", "delete-focus", "get-app-settings", "get-cooldown", "get-focus", "get-notification-categories",
                "get-summary", "request-focus", "rpc.discover", "set-focus",
            ])
    }
}
