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

/// `heraldctl --socket PATH --json status` as well as `heraldctl status --socket PATH --json`:
/// the client options belong to each subcommand, so those written before it move after it.
enum ClientOptionOrder {
    static func subcommandFirst(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--json" || argument.hasPrefix("--socket=") {
                leading.append(argument)
                index += 1
            } else if argument == "--socket", index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        return Array(arguments[index...]) + leading
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
