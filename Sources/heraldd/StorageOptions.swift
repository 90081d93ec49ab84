import ArgumentParser
import FoundationEssentials
import HeraldCore
import HeraldStorage

struct StorageOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The folder of the state's snapshots; made 0700.",
            discussion: "Default: $STATE_DIRECTORY, else $XDG_STATE_HOME/herald, else ~/.local/state/herald.",
            valueName: "dir"
        )
    )
    var stateDir: String?

    @Option(
        help: ArgumentHelp(
            "Snapshot the state this often when it changed; 0 only at shutdown. With a change log, also as soon as the log passes twice the last snapshot's size (1 MiB at least).",
            valueName: "seconds"
        )
    )
    var snapshotInterval: Double = 30

    @Flag(help: "When no snapshot in the state folder can be loaded, set them aside and start empty instead of refusing to start.")
    var discardDamagedState = false

    @Option(help: ArgumentHelp("The most interactions kept; the oldest donations are evicted first.", valueName: "count"))
    var maxInteractions: Int = 1_000_000

    @Option(
        help: ArgumentHelp(
            "How long an interaction is kept after its donation, a delivered notification after its delivery, and a waiting response after the answer: seconds, or a number with s, m, h or d (30d, 12h).",
            valueName: "duration"
        )
    )
    var retention: String = "30d"

    @Option(
        help: ArgumentHelp(
            "When the state cannot be written (full disk, read-only folder, I/O error): refuse changes with error 1011 and answer reads until a snapshot succeeds, or accept them, which a crash or a stop would then lose.",
            valueName: "refuse|accept"
        )
    )
    var onWriteFailure: String = "refuse"

    @Option(
        help: ArgumentHelp(
            "What a crash may lose: log-everysec writes each change to a change log before answering and syncs it once a second (a kill -9 loses nothing acknowledged, a power cut about a second); log syncs before answering (a power cut loses nothing); snapshot keeps no log (a crash loses what came after the last snapshot).",
            valueName: "log-everysec|log|snapshot"
        )
    )
    var durability: String = Durability.logEverysec.rawValue

    var durabilityMode: Durability { Durability(rawValue: durability) ?? .logEverysec }

    var writeFailurePolicy: WriteFailurePolicy { WriteFailurePolicy(rawValue: onWriteFailure) ?? .refuse }

    var folder: String { stateDir ?? StateFolder.defaultPath() }

    /// `--retention` in seconds.
    var retentionSeconds: Double? { DurationText.seconds(retention) }

    func validate() throws {
        guard snapshotInterval >= 0 else { throw ValidationError("--snapshot-interval must be 0 or more seconds.") }
        guard WriteFailurePolicy(rawValue: onWriteFailure) != nil else {
            throw ValidationError("--on-write-failure must be refuse or accept, not \(onWriteFailure).")
        }
        guard Durability(rawValue: durability) != nil else {
            throw ValidationError("--durability must be log-everysec, log or snapshot, not \(durability).")
        }
        guard maxInteractions >= 1 else { throw ValidationError("--max-interactions must be 1 or more.") }
        guard let seconds = retentionSeconds, seconds > 0 else {
            throw ValidationError("--retention must be a positive duration such as 2592000, 30d or 12h, not \(retention).")
        }
    }
}
