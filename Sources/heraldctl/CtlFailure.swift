import FoundationEssentials
import HeraldProtocol

/// heraldctl's exit statuses, as documented in the README and the man page.
enum CtlStatus: Int32 {
    case success = 0
    /// A JSON-RPC error, or a damaged snapshot file.
    case failed = 1
    case usage = 2
    /// `EX_NOINPUT`: `inspect-snapshot`'s file is absent, unreadable (permissions), or a folder.
    case noInput = 66
    /// `EX_UNAVAILABLE`: heraldd could not be reached.
    case unavailable = 69
    /// `EX_IOERR`: `inspect-snapshot`'s file opened but could not be read to its end.
    case ioError = 74
}

/// A failure to report to a person: the lines to print on stderr, and the exit status.
struct CtlFailure: Error {
    var status: CtlStatus
    var lines: [String]

    /// The member at fault (`data.pointer`) of a JSON-RPC error, which ``naming(_:)`` may
    /// turn into the flag that gave it.
    var pointer: String?

    init(_ status: CtlStatus, _ lines: [String]) {
        self.status = status
        self.lines = lines
    }

    /// A JSON-RPC error object, as heraldd sent it: its message, code, reason and pointer.
    static func rpc(method: String, error: JSONValue) -> CtlFailure {
        let code = error["code"].map { Output.text($0) } ?? "?"
        let message = error["message"]?.stringValue ?? "error"
        var lines = ["heraldctl: \(method): \(message) (\(code))"]
        let data = error["data"]
        if let reason = data["reason"]?.stringValue { lines.append("  reason: \(reason)") }
        if let pointer = data["pointer"]?.stringValue { lines.append("  pointer: \(pointer.isEmpty ? "\"\" (the params)" : pointer)") }
        if let limit = data["limit"] { lines.append("  limit: \(Output.text(limit))") }
        // Only a method refused as an administrator's: the reason of any other 1006 says what to do.
        if code == "1006", data["reason"]?.stringValue?.contains("for administrators") ?? true {
            lines.append("  \(method) is for administrators: run heraldctl as root, or as a member of heraldd's --admin-group.")
        }
        var failure = CtlFailure(.failed, lines)
        failure.pointer = data["pointer"]?.stringValue
        return failure
    }

    /// The failure with its pointer line naming the command's own flag or argument instead,
    /// as a person typed it: `flags` maps a member's pointer (and what lies under it:
    /// `/identifiers` covers `/identifiers/0`) to `--app`, `--text`, `IDENTIFIER`. A member
    /// below the flag's keeps its pointer after the flag, to say which of several it is.
    func naming(_ flags: [String: String]) -> CtlFailure {
        guard let pointer,
            let member = flags.keys.filter({ pointer == $0 || pointer.hasPrefix($0 + "/") }).max(by: { $0.count < $1.count }),
            let index = lines.firstIndex(where: { $0.hasPrefix("  pointer: ") })
        else { return self }
        var failure = self
        failure.lines[index] = "  given by: \(flags[member]!)" + (pointer == member ? "" : " (its member \(pointer))")
        return failure
    }

    func report() {
        StandardStreams.writeError(lines.map { $0 + "\n" }.joined())
    }
}
