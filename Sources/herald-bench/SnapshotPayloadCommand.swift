import ArgumentParser
import Foundation
import HeraldCore
import HeraldProtocol
import HeraldStorage
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `herald-bench snapshot-payload`: times each stage of a snapshot of N interactions (and
/// K notifications in the list) in this process — encode, checksum, write with fsync, read,
/// verify, decode — so that the socket benchmark's totals (`make bench-snapshot`) can be
/// taken apart.
struct SnapshotPayloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot-payload",
        abstract: "Time a snapshot's stages for N interactions of bench-snapshot's shape."
    )

    @Option(help: "Interactions in the state.")
    var interactions = 1_000_000

    @Option(help: "Notifications in one uid's notification list, as NOTIFICATIONS=K puts them in bench-snapshot.py's.")
    var notifications = 0

    @Option(help: "A folder to write the snapshot in (made if missing; its snapshot files are replaced).")
    var folder = FileManager.default.temporaryDirectory.path + "/herald-snapshot-payload"

    @Option(help: "Times to run each stage but the fill; the fastest run is reported.")
    var repeats = 3

    func run() throws {
        var figures: [(stage: String, wall: Double, cpu: Double)] = []
        func timed<T>(_ stage: String, _ body: () throws -> T) rethrows -> T {
            var best: (wall: Double, cpu: Double)?
            var result: T?
            for _ in 0..<(stage.hasPrefix("fill") ? 1 : max(1, repeats)) {
                result = nil
                let cpuStart = Self.processCPUSeconds()
                let start = ContinuousClock.now
                result = try body()
                let elapsed = ContinuousClock.now - start
                let wall = Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)
                let cpu = Self.processCPUSeconds() - cpuStart
                if best == nil || wall < best!.wall { best = (wall, cpu) }
            }
            figures.append((stage, best!.wall, best!.cpu))
            return result!
        }

        var state = try timed("fill (donate \(interactions))") { try Self.typicalState(interactions) }
        if notifications > 0 {
            try timed("fill (update-content \(notifications))") { try Self.fillNotifications(notifications, into: &state) }
        }
        let payload = try timed("encode") { try SnapshotPayload.encode(state, parallel: nil) }
        _ = try timed("encode on every core") {
            try SnapshotPayload.encode(state, parallel: runOnEveryCore)
        }
        _ = timed("checksum") { payload.checksum }
        let file = try timed("encode + checksum (SnapshotFile)") {
            try SnapshotFile(encoding: state, generation: 1, now: Date())
        }
        let store = SnapshotStore(folder: folder)
        try store.prepareFolder()
        try timed("write + fsync + rename") { try store.write(file) }
        let recovered = try timed("restore (read, verify, decode)") {
            try store.recover(discardDamaged: false, configuration: state.configuration, logger: Logger(label: "herald-bench"))
        }
        let bytes = file.header.bytes + file.payload
        _ = try timed("decode alone") {
            try SnapshotPayload.decode(bytes, version: file.header.version, configuration: state.configuration)
        }
        guard recovered.state.interactionCount == interactions else {
            throw ValidationError("Restored \(recovered.state.interactionCount) interactions of \(interactions).")
        }
        guard recovered.state.notificationCount == notifications else {
            throw ValidationError("Restored \(recovered.state.notificationCount) notifications of \(notifications).")
        }

        print(
            "snapshot payload: \(interactions) interactions, \(notifications) notifications, \(file.byteCount) bytes"
                + " (\(file.byteCount / max(interactions + notifications, 1)) per record)"
        )
        print("  \("stage".padding(toLength: 36, withPad: " ", startingAt: 0))    wall s    CPU s  (fastest of \(repeats))")
        for (stage, wall, cpu) in figures {
            print("  \(stage.padding(toLength: 36, withPad: " ", startingAt: 0)) \(String(format: "%8.3f %8.3f", wall, cpu))")
        }
    }

    /// CPU time of every thread of this process: a figure the other load on a shared
    /// machine disturbs less than wall time.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// What `scripts/bench-snapshot.py` puts in the list with NOTIFICATIONS=K: delivered
    /// notifications of one app, each with its own identifier, a title, a body and a score.
    static func fillNotifications(_ count: Int, into state: inout HeraldState) throws {
        state.configuration.maxNotificationsPerUID = max(10_000, count * 2)
        state.configuration.maxNotificationBytesPerUID = 1 << 40
        let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<count {
            let content = NotificationContent(
                title: "Story \(index)", body: "Story number \(index): what happened today", relevanceScore: Double(index % 100) / 100)
            _ = try state.updateContent(
                UpdateContentParams(app: "org.example.news", identifier: "n\(index)", content: content),
                caller: caller,
                now: start.addingTimeInterval(Double(index) / 1000)
            )
        }
    }

    /// The shape `scripts/bench-snapshot.py` donates: an incoming message from one of
    /// 5,000 senders to the user, in one of 20,000 conversations.
    static func typicalState(_ count: Int) throws -> HeraldState {
        var state = HeraldState(configuration: CoreConfiguration(maxInteractions: count * 2, maxInteractionsPerUID: count * 2))
        let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let me = Person(handle: PersonHandle(value: "me@example.org", type: .emailAddress), displayName: "Me")
        for index in 0..<count {
            let sender = index % 5000
            let message = SendMessageIntent(
                sender: Person(
                    handle: PersonHandle(value: "user\(sender)@example.org", type: .emailAddress), displayName: "User \(sender)"),
                recipients: [me],
                content: "Message number \(index): are we still on for lunch?",
                conversationIdentifier: "c\(index % 20000)"
            )
            let interaction = Interaction(identifier: "m\(index)", direction: .incoming, intent: .sendMessage(message))
            _ = try state.donate(
                DonateParams(app: "org.example.chat", interaction: interaction),
                caller: caller,
                now: start.addingTimeInterval(Double(index) / 1000)
            )
        }
        return state
    }
}
