import ArgumentParser
import FoundationEssentials
import HeraldClient
import HeraldProtocol

/// `heraldctl call METHOD [PARAMS]`, like `varlinkctl call`: any method, params as JSON.
struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call any method with params as JSON (or - to read them from standard input); print the result."
    )

    @OptionGroup var client: ClientOptions
    @Argument(help: "The method, such as stats.") var method: String
    @Argument(help: "The params: a JSON object, or - for standard input.") var params: String?

    func run() throws {
        var parsed: JSONValue?
        if let params {
            let data = params == "-" ? StandardStreams.readInput() : Array(params.utf8)
            do {
                // Parsed only to say early what is wrong; the params go as written, numbers and all.
                parsed = try JSONParser.parse(data, maxDepth: HeraldClient.deepestInput)
            } catch {
                throw CtlFailure(.usage, ["heraldctl: the params are not valid JSON: \(String(decoding: data.prefix(80), as: UTF8.self))"])
            }
        }
        let result = try client.connect().call(method, params: parsed)
        if client.json {
            Output.printJSON(result)
        } else {
            Swift.print(Output.jsonText(result, pretty: true))
        }
    }
}

/// `heraldctl methods`: the methods heraldd serves, from `rpc.discover`.
struct MethodsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "methods",
        abstract: "List heraldd's methods, from rpc.discover."
    )

    @OptionGroup var client: ClientOptions

    func run() throws {
        let document = try client.connect().call("rpc.discover")
        let methods = document["methods"]?.arrayValue ?? []
        if client.json {
            Output.printJSON(.array(methods.map { ["name": $0["name"] ?? .null, "summary": $0["summary"] ?? .null] }))
            return
        }
        let width = methods.map { ($0["name"]?.stringValue ?? "").count }.max() ?? 0
        Output.print(methods.map { method in
            let name = method["name"]?.stringValue ?? "?"
            return "\(name.padded(to: width))  \(method["summary"]?.stringValue ?? "")"
        })
    }
}
