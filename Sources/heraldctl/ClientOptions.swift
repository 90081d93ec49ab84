import ArgumentParser
import FoundationEssentials
import HeraldClient
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The options every subcommand that talks to heraldd takes.
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("heraldd's socket (default: $HERALD_SOCKET, else heraldd's own search).", valueName: "path"))
    var socket: String?

    @Flag(help: "Print the raw result as JSON, one JSON text per line, for scripts.")
    var json = false

    var socketPath: String { SocketLocation.resolve(flag: socket) }

    func connect() throws(CtlFailure) -> HeraldClient {
        try HeraldClient.ctlConnect(path: socketPath)
    }

    /// Calls `method` and prints its result: as JSON with `--json`, else with `human`. An
    /// error's member is named by the flag `flags` maps its pointer to (``CtlFailure/naming(_:)``).
    func run(
        _ method: String, params: [String: JSONValue]? = nil, flags: [String: String] = [:], human: (JSONValue) -> [String]
    ) throws(CtlFailure) {
        let result: JSONValue
        do {
            result = try connect().call(method, params: params.map { .members($0) })
        } catch {
            throw error.naming(flags)
        }
        if json {
            Output.printJSON(result)
        } else {
            Output.print(human(result))
        }
    }
}

/// `heraldctl --socket PATH --json status` as well as `heraldctl status --socket PATH --json`:
/// the client options belong to each subcommand, so those written before it move after it
/// — before a `--`, after which a command's own arguments start (`focus hold`).
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
        var moved = Array(arguments[index...])
        moved.insert(contentsOf: leading, at: moved.firstIndex(of: "--") ?? moved.endIndex)
        return moved
    }
}

/// Writing to standard output, a line at a time (flushed, so a pipe sees each line at once).
enum Output {
    static func print(_ lines: [String]) {
        for line in lines { Swift.print(line) }
        fflush(nil)
    }

    static func printJSON(_ value: JSONValue) {
        Swift.print(jsonText(value))
        fflush(nil)
    }

    /// `value` as one line of JSON, members sorted by name (``JSONKeyOrder``); `pretty`, indented as
    /// Foundation's `JSONSerialization` indented it (`"name" : value`, two spaces a level).
    static func jsonText(_ value: JSONValue, pretty: Bool = false) -> String {
        var text: [UInt8] = []
        write(value, pretty: pretty, indent: 0, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, pretty: Bool, indent: Int, to text: inout [UInt8]) {
        func newline(_ level: Int) {
            guard pretty else { return }
            text.append(UInt8(ascii: "\n"))
            text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        if pretty, value.arrayValue?.isEmpty == true || value.objectValue?.isEmpty == true {
            // An empty one holds an empty line, as Foundation wrote it.
            let isArray = value.arrayValue != nil
            text.append(contentsOf: [UInt8(ascii: isArray ? "[" : "{"), UInt8(ascii: "\n")])
            newline(indent)
            text.append(UInt8(ascii: isArray ? "]" : "}"))
            return
        }
        switch value {
        case .array(let elements):
            text.append(UInt8(ascii: "["))
            newline(indent + 1)
            for (index, element) in elements.enumerated() {
                if index > 0 {
                    text.append(UInt8(ascii: ","))
                    newline(indent + 1)
                }
                write(element, pretty: pretty, indent: indent + 1, to: &text)
            }
            newline(indent)
            text.append(UInt8(ascii: "]"))
        case .object(let object):
            // Of members named alike the last counts, as when heraldctl read them into a dictionary.
            var last: [String: JSONValue] = [:]
            for member in object.members { last[member.key] = member.value }
            text.append(UInt8(ascii: "{"))
            newline(indent + 1)
            for (index, key) in last.keys.sorted(by: JSONKeyOrder.precedes).enumerated() {
                if index > 0 {
                    text.append(UInt8(ascii: ","))
                    newline(indent + 1)
                }
                JSONValue.string(key).write(to: &text)
                text.append(contentsOf: pretty ? Array(" : ".utf8) : [UInt8(ascii: ":")])
                write(last[key]!, pretty: pretty, indent: indent + 1, to: &text)
            }
            newline(indent)
            text.append(UInt8(ascii: "}"))
        case .null, .bool, .number, .string:
            value.write(to: &text)
        }
    }

    /// Whether a member is `true`.
    static func bool(_ value: JSONValue?) -> Bool {
        value?.boolValue ?? false
    }

    /// A member of a result as a person reads it: a string as it is, `-` for none or null,
    /// anything else as JSON.
    static func text(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return "-"
        case .string(let string)?: return string
        case let value?: return jsonText(value)
        }
    }
}
