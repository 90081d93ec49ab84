import ArgumentParser

/// `herald-bench`: drives Herald and its references with the same load and prints ratios.
@main
struct HeraldBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald-bench",
        abstract: "Load generator and floor server for `make bench`."
    )

    func run() throws {
        throw ValidationError("No scenario yet: `make bench` drives this tool once its scenarios exist.")
    }
}
