import ArgumentParser

/// `herald-bench floor`: the trivial server the load generator is measured against.
struct FloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor",
        abstract: "Serve a Unix socket answering each line with a fixed-size line, until killed."
    )

    @Option(help: "The socket to listen on.")
    var socket: String

    @Option(help: ArgumentHelp("Bytes in each answer line, newline included (Herald's size for the scenario).", valueName: "bytes"))
    var responseBytes: Int = 100

    func run() throws {
        try FloorServer(socketPath: socket, responseBytes: responseBytes).run()
    }
}
