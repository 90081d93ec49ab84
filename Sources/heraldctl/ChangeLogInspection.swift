import FoundationEssentials
import HeraldProtocol
import HeraldStorage

/// `heraldctl inspect-snapshot` on a change log segment (`changes.N.log`): its header, one
/// line per record, and where a torn or damaged tail begins, which replay would drop.
enum ChangeLogInspection {
    static func isChangeLog(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: ChangeLogFile.magic)
    }

    static func run(_ bytes: [UInt8], file: String, json: Bool) throws {
        let reading: ChangeLogFile.Reading
        do {
            reading = try ChangeLogFile.read(bytes)
        } catch {
            throw CtlFailure(.failed, ["heraldctl: \(file) is not a change log this heraldctl reads: \(error.reason)"])
        }
        if json {
            var out: [UInt8] = []
            for record in reading.records { out += line(record) + [UInt8(ascii: "\n")] }
            StandardStreams.writeOutput(out)
        } else {
            let header = reading.header
            var lines = [
                "Herald change log, format version \(header.version), \(bytes.count) bytes",
                "  follows:      generation \(header.baseGeneration)\(header.continues ? " (continues the segment before it)" : "")",
                "  created:      \(RFC3339.format(header.createdAt))",
                "  records:      \(reading.records.count)",
            ]
            for (index, record) in reading.records.enumerated() {
                let app = record.caller.app.map { " app \($0.id)" } ?? ""
                let held: String
                switch record.change {
                case .request(let params, let generated):
                    held = "params \(params.count) bytes\(generated.isEmpty ? "" : "  drew \(generated.joined(separator: ","))")"
                case .donation(let donor, let record):
                    held = "stored \(donor) interaction \(record.identifier)"
                }
                lines.append(
                    "  \(index + 1)  \(RFC3339.format(record.appliedAt))  \(record.method)  uid \(record.caller.uid)\(app)  \(held)")
            }
            lines.append(
                reading.problem.map { "  tail:         \(reading.droppedBytes) bytes dropped at replay: \($0)" }
                    ?? "  checksums:    good; every byte is a whole record")
            Output.print(lines)
        }
        if let problem = reading.problem {
            throw CtlFailure(.failed, ["heraldctl: \(file) ends in \(reading.droppedBytes) bytes replay drops: \(problem)"])
        }
    }

    /// A record as one JSON object: a request's params as the JSON text they were sent in,
    /// a donation's app and interaction as stored (`stored`).
    private static func line(_ record: ChangeRecord) -> [UInt8] {
        var members: [String: JSONValue] = [
            "method": record.method.json, "appliedAt": RFC3339.format(record.appliedAt).json, "uid": record.caller.uid.json,
            "gid": record.caller.gid.json, "pid": Int(record.caller.pid).json, "administrator": record.caller.isAdministrator.json,
        ]
        if let app = record.caller.app { members["app"] = .members(["id": app.id.json, "source": app.source.rawValue.json]) }
        switch record.change {
        case .request(let params, let generated):
            members["generated"] = generated.json
            members["params"] = (try? JSONParser.parse(params)) ?? String(decoding: params, as: UTF8.self).json
        case .donation(let donor, let record):
            let encoded = (try? JSONEncoder().encode(record.interaction)).flatMap { try? JSONParser.parse([UInt8]($0)) }
            members["stored"] = .members(["app": donor.json, "interaction": encoded ?? .null])
        }
        return Array(Output.jsonText(.members(members)).utf8)
    }
}
