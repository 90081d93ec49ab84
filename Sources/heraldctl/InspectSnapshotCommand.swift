import ArgumentParser
import FoundationEssentials
import HeraldProtocol

/// `heraldctl inspect-snapshot FILE`: what a snapshot file holds, read without a daemon.
struct InspectSnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect-snapshot",
        abstract: "Read a snapshot file or a change log segment without heraldd: header, generation, counts and checksum verdict.",
        discussion:
            "Exit status 0 when the file verifies and decodes, 1 when it is damaged (for a change log: it ends in bytes replay drops), "
            + "66 when it is absent, not readable by you, or a folder (give the file in it: state.snapshot or changes.N.log), "
            + "74 when it opened but could not be read to its end. --json prints times to the millisecond, as heraldd's answers do."
    )

    @Argument(help: "The snapshot file, such as /var/lib/herald/state.snapshot, or a change log segment (changes.N.log).")
    var file: String
    @Flag(help: "Print the whole state as JSON (one line); for a change log, a JSON object a line per record.") var json = false

    func run() throws {
        let bytes = try SnapshotInput.read(file)
        if ChangeLogInspection.isChangeLog(bytes) {
            return try ChangeLogInspection.run(bytes, file: file, json: json)
        }
        switch SnapshotReading.verify(bytes) {
        case .success(let summary):
            do {
                let state = try SnapshotReading.stateJSON(bytes)
                if json {
                    StandardStreams.writeOutput(state.json + [UInt8(ascii: "\n")])
                } else {
                    Output.print(Self.lines(summary, fileSize: bytes.count) + [
                        "  checksums:    good; the state decodes (\(state.interactions) interactions)"
                    ])
                }
            } catch {
                if !json { Output.print(Self.lines(summary, fileSize: bytes.count)) }
                throw CtlFailure(.failed, ["heraldctl: \(file) is damaged: \(error)"])
            }
        case .failure(let error):
            if !json {
                if let header = SnapshotReading.header(bytes) {
                    Output.print(Self.lines(header, fileSize: bytes.count))
                } else {
                    Output.print(["\(file): \(bytes.count) bytes, no readable snapshot header"])
                }
                Output.print(["  checksums:    BAD — \(error)"])
            }
            throw CtlFailure(.failed, ["heraldctl: \(file) is damaged: \(error)"])
        }
    }

    static func lines(_ summary: SnapshotReading.Summary, fileSize: Int) -> [String] {
        let age = Date().timeIntervalSince(summary.createdAt)
        let encoding = SnapshotReading.encodingNames[summary.encoding] ?? "unknown (\(summary.encoding))"
        return [
            "Herald snapshot, format version \(summary.version), \(encoding) encoding, \(fileSize) bytes",
            "  generation:   \(summary.generation)",
            "  created:      \(RFC3339.format(summary.createdAt)) (\(Duration.words(age)) ago)",
            "  interactions: \(summary.interactions)",
            "  payload:      \(summary.payloadLength) bytes",
        ]
    }
}
