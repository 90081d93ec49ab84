import ArgumentParser
import Foundation
import HeraldProtocol

/// `herald-bench decode-params`: the ways a request line can become typed params, timed
/// side by side in one process on `make bench`'s own `donate` and `update-content` lines.
///
/// - `tree parse`: Herald's parser alone, bytes to a tree of `JSONValue`s (what heraldd
///   paid before it read requests from a tape; heraldctl and the presenter still do);
/// - `tape parse`: bytes to a `JSONTape`, the framer's one pass;
/// - `tape + ParamsReader`: then the params read strictly from the tape (`ParamsReadable`),
///   as heraldd does — the one path kept;
/// - `Foundation JSONDecoder`: the whole line, envelope and params, by Foundation's decoder
///   through the types' synthesized `Decodable` (it cannot echo an id exactly as written,
///   which Herald must, and it ignores unknown members, so this is a reference).
struct DecodeParamsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-params",
        abstract: "Time the ways of decoding donate and update-content params, side by side."
    )

    @Option(help: "Lines decoded per measurement.")
    var lines = 200_000

    @Option(help: "Measurements per way; the fastest is reported.")
    var repeats = 3

    @Flag(help: "One JSON line of figures instead of a table.")
    var json = false

    /// A request as Foundation's decoder reads it.
    private struct Request<Params: Decodable>: Decodable {
        var jsonrpc: String
        var id: Int
        var method: String
        var params: Params
    }

    func run() throws {
        var figures: [(scenario: String, way: String, nanoseconds: Double)] = []
        for scenario in [Scenario.donate, .updateContent] {
            var line: [UInt8] = []
            scenario.requestTemplate(connection: 0).render(id: 7, key: 7, into: &line)
            let data = Data(line)
            func measure(_ way: String, _ body: () throws -> Void) rethrows {
                var best = Double.infinity
                for _ in 0..<max(1, repeats) {
                    let start = ContinuousClock.now
                    for _ in 0..<lines { try body() }
                    let elapsed = ContinuousClock.now - start
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    best = min(best, seconds * 1e9 / Double(lines))
                }
                figures.append((scenario.rawValue, way, best))
            }
            let foundation = JSONDecoder()
            foundation.dateDecodingStrategy = .iso8601
            try measure("tree parse") { _ = try JSONParser.parse(line) }
            try measure("tape parse") { _ = try JSONTape.parse(line) }
            func params() throws -> JSONNode {
                try JSONTape.parse(line).root[member: "params"] ?? JSONTape.emptyObject.root
            }
            switch scenario {
            case .donate:
                try measure("tape + ParamsReader") { _ = try DonateMethod.decodeParams(try params()) }
                try measure("Foundation JSONDecoder") { _ = try foundation.decode(Request<DonateParams>.self, from: data) }
            default:
                try measure("tape + ParamsReader") { _ = try UpdateContentMethod.decodeParams(try params()) }
                try measure("Foundation JSONDecoder") {
                    _ = try foundation.decode(Request<UpdateContentParams>.self, from: data)
                }
            }
        }
        if json {
            let members = figures.map { #"{"scenario":"\#($0.scenario)","way":"\#($0.way)","nsPerLine":\#(Int($0.nanoseconds))}"# }
            print(#"{"kind":"decode-params","lines":\#(lines),"figures":[\#(members.joined(separator: ","))]}"#)
        } else {
            print("| scenario | way | ns per line |")
            print("|---|---|---|")
            for figure in figures {
                print("| \(figure.scenario) | \(figure.way) | \(Int(figure.nanoseconds)) |")
            }
        }
    }
}
