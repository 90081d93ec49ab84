import ArgumentParser
import Foundation
import HeraldCore
import HeraldProtocol
import HeraldStorage

/// `herald-bench change-log-fill`: writes a state folder as a heraldd killed after logging
/// N changes would leave it — a snapshot of M interactions of bench-snapshot's shape (none
/// for 0) and one change-log segment of N donations after it — for `make bench-durability`
/// to time the restart. A live heraldd never leaves 1M changes after a small snapshot: its
/// log asks for a snapshot past twice the last one's size (``ChangeLogBound``).
struct ChangeLogFillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-log-fill",
        abstract: "Write a state folder with a snapshot of M interactions and N logged donations after it."
    )

    @Option(help: "The state folder to write (made if missing; its snapshot and segments are replaced).")
    var folder: String

    @Option(help: "Interactions in the snapshot; 0 for no snapshot.")
    var interactions = 0

    @Option(help: "Donations in the change log after the snapshot.")
    var changes = 1_000_000

    /// How the donations are logged.
    enum RecordFormat: String, ExpressibleByArgument {
        /// As heraldd logs them: each donation as stored (format version 2).
        case stored
        /// As heraldd logged them before: each request's params (format version 1).
        case params
    }

    @Option(help: "stored: each donation as stored, as heraldd logs it; params: each request's params, as heraldd before format version 2 did.")
    var recordFormat = RecordFormat.stored

    func run() throws {
        let store = SnapshotStore(folder: folder)
        try store.prepareFolder()
        let logFolder = ChangeLogFolder(folder: folder)
        logFolder.removeSegments(before: .max)
        var generation: UInt64 = 0
        if interactions > 0 {
            let file = try SnapshotFile(
                encoding: try SnapshotPayloadCommand.typicalState(interactions), generation: 1, now: Date(), parallel: runOnEveryCore)
            try store.write(file)
            generation = 1
        }
        let caller = Caller(uid: 1000, gid: 1000, pid: 1, isAdministrator: false)
        // Recent enough that --retention keeps them.
        let start = Date().addingTimeInterval(-3600)
        let version: UInt16 = recordFormat == .stored ? ChangeLogFile.version : 1
        var bytes = ChangeLogFile.header(baseGeneration: generation, createdAt: Date(), version: version)
        bytes.reserveCapacity(changes * 330)
        for index in 0..<changes {
            let params =
                #"{"app":"org.example.chat","interaction":{"identifier":"x\#(index)","direction":"incoming","intent":{"type":"sendMessage","sender":{"handle":{"value":"user\#(index % 5000)@example.org","type":"emailAddress"},"displayName":"User \#(index % 5000)"},"conversationIdentifier":"c\#(index % 20000)","content":"Message number \#(index)"}}}"#
            let appliedAt = start.addingTimeInterval(Double(index) / 1000)
            switch recordFormat {
            case .stored:
                // What heraldd logs: the donation as the store keeps it.
                let donation = try HeraldState.prepareDonation(try DonateMethod.decodeParams(try JSONTape.parse(Array(params.utf8), maxDepth: 64).root))
                ChangeLogFile.append(
                    ChangeRecord(donationBy: caller, appliedAt: appliedAt, app: donation.app, record: donation.record),
                    to: &bytes)
            case .params:
                ChangeLogFile.append(
                    ChangeRecord(method: "donate", caller: caller, appliedAt: appliedAt, params: Array(params.utf8)), to: &bytes, version: 1)
            }
        }
        let path = logFolder.path(ofSegment: 1)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw ValidationError("Cannot write \(path).")
        }
        print("change-log-fill: \(interactions) interactions in the snapshot, \(changes) donations (\(bytes.count) bytes) in \(path)")
    }
}
