import ArgumentParser
import Foundation

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
        var parsed: Any?
        if let params {
            let data = params == "-" ? FileHandle.standardInput.readDataToEndOfFile() : Data(params.utf8)
            do {
                parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
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
        let document = try client.connect().call("rpc.discover") as? [String: Any] ?? [:]
        let methods = document["methods"] as? [[String: Any]] ?? []
        if client.json {
            Output.printJSON(methods.map { ["name": $0["name"] ?? NSNull(), "summary": $0["summary"] ?? NSNull()] })
            return
        }
        let width = methods.map { ($0["name"] as? String ?? "").count }.max() ?? 0
        Output.print(methods.map { method in
            let name = method["name"] as? String ?? "?"
            return "\(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(method["summary"] as? String ?? "")"
        })
    }
}
