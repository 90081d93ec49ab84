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

    @Flag(help: "Serve with SwiftNIO (an event loop per core) instead of a thread per connection on bare sockets.")
    var nio = false

    func run() throws {
        if nio {
            try NIOFloorServer(socketPath: socket, answer: FloorAnswer(responseBytes: responseBytes)).run()
        } else {
            try FloorServer(socketPath: socket, responseBytes: responseBytes).run()
        }
    }
}
