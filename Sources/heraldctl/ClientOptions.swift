import ArgumentParser
import Foundation

/// The options every subcommand that talks to heraldd takes.
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("heraldd's socket (default: $HERALD_SOCKET, else heraldd's own search).", valueName: "path"))
    var socket: String?

    @Flag(help: "Print the raw result as JSON, one JSON text per line, for scripts.")
    var json = false

    var socketPath: String { SocketLocation.resolve(flag: socket) }

    func connect() throws(CtlFailure) -> DaemonConnection {
        try DaemonConnection(path: socketPath)
    }

    /// Calls `method` and prints its result: as JSON with `--json`, else with `human`.
    func run(_ method: String, params: Any? = nil, human: (Any) -> [String]) throws(CtlFailure) {
        let result = try connect().call(method, params: params)
        if json {
            Output.printJSON(result)
        } else {
            Output.print(human(result))
        }
    }
}

/// Writing to standard output, a line at a time (flushed, so a pipe sees each line at once).
enum Output {
    static func print(_ lines: [String]) {
        for line in lines { Swift.print(line) }
        fflush(nil)
    }

    static func printJSON(_ value: Any) {
        Swift.print(jsonText(value))
        fflush(nil)
    }

    static func jsonText(_ value: Any, pretty: Bool = false) -> String {
        var options: JSONSerialization.WritingOptions = [.fragmentsAllowed, .withoutEscapingSlashes, .sortedKeys]
        if pretty { options.insert(.prettyPrinted) }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A JSON number or boolean as a person reads it.
    static func text(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "-"
        case let string as String: return string
        default: return jsonText(value!)
        }
    }

    static func bool(_ value: Any?) -> Bool {
        (value as? Bool) ?? (value as? NSNumber)?.boolValue ?? false
    }
}
