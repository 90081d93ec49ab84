import ArgumentParser

/// `herald-bench`: drives Herald and its references with the same load, and reports ratios.
@main
struct HeraldBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald-bench",
        abstract: "Load generator, floor server and report of `make bench`.",
        subcommands: [
            LoadCommand.self, FloorCommand.self, NotifyCommand.self, ReportCommand.self, SnapshotPayloadCommand.self, DecodeParamsCommand.self, SearchCommand.self, StoreDonateCommand.self, RequestPathCommand.self,
            ChangeLogFillCommand.self,
        ]
    )
}
