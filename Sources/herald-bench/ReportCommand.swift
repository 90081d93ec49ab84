import ArgumentParser
import Foundation

/// `herald-bench report`: joins a run's JSON lines into tables and one JSON document.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Read the JSON lines of a run, print its tables, and write the whole run as one JSON file."
    )

    @Option(help: "The run's JSON lines: load, redis, ceiling and meta records.")
    var input: String

    @Option(help: "Where to write the run as one JSON document.")
    var output: String?

    func run() throws {
        let text = try String(contentsOfFile: input, encoding: .utf8)
        let records = text.split(separator: "\n").filter { $0.hasPrefix("{") }.map { Data($0.utf8) }
        let report = try BenchReport(records: records)
        print(report.tables, terminator: "")
        if let output {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(report).write(to: URL(fileURLWithPath: output))
            print("\nWritten: \(output)")
        }
    }
}
