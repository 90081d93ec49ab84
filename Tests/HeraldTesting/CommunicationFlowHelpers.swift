import Foundation
import HeraldProtocol

/// Helpers for the communication-flow end-to-end tests (donate, update-content, request-focus).

package struct RPCCallFailure: Error, CustomStringConvertible {
    package var description: String
}

extension UnixSocketClient {
    /// The `result` of calling `method`; throws with the whole response when it is an error.
    @discardableResult
    package func result(_ method: String, _ params: JSONValue? = nil, id: JSONValue = 1) throws -> JSONValue {
        let response = try call(method, params, id: id)
        guard let result = response[pointer: "/result"] else {
            throw RPCCallFailure(description: "\(method) answered \(response.compactText)")
        }
        return result
    }
}

/// Parses JSON text written in a test (crashes the test on a typo, which is what we want).
package func json(_ text: String) -> JSONValue {
    do {
        return try JSONParser.parse(text)
    } catch {
        fatalError("bad JSON in a test: \(error) in \(text)")
    }
}

/// A delivery (or an update-content result, or a response holding one) in one exact line:
/// the presentation, `deliverAt` when present, each true flag in protocol order, and the
/// reason codes — e.g. `alert sound lightsScreen announce [delivered]`. A flag that is
/// missing or not a boolean shows as `flag?`; a reason without a message as `code?`.
package func describeDelivery(_ value: JSONValue?) -> String {
    var delivery = value
    if let nested = value?[pointer: "/result/delivery"] {
        delivery = nested
    } else if let nested = value?[pointer: "/delivery"] {
        delivery = nested
    }
    guard let delivery, case .object = delivery else { return "no delivery" }
    var words: [String] = [delivery[pointer: "/presentation"]?.stringValue ?? "presentation?"]
    if let deliverAt = delivery[pointer: "/deliverAt"] {
        words.append("deliverAt=\(deliverAt.stringValue ?? "?")")
    }
    for flag in ["sound", "lightsScreen", "breaksThroughFocus", "breaksThroughSummary", "bypassesRinger", "announce"] {
        switch delivery[pointer: "/\(flag)"]?.boolValue {
        case true?: words.append(flag)
        case false?: break
        case nil: words.append("\(flag)?")
        }
    }
    let reasons = delivery[pointer: "/reasons"]?.arrayValue ?? []
    let codes = reasons.map { reason -> String in
        let code = reason[pointer: "/code"]?.stringValue ?? "?"
        let message = reason[pointer: "/message"]?.stringValue ?? ""
        return message.isEmpty ? code + "?" : code
    }
    words.append("[" + codes.joined(separator: ", ") + "]")
    return words.joined(separator: " ")
}

/// An error response in one line: `code pointer` (`-` when there is no pointer), or
/// `no error` / `no reason` when those are missing.
package func describeError(_ response: JSONValue) -> String {
    guard let code = response[pointer: "/error/code"]?.numberValue?.literal else { return "no error: \(response.compactText)" }
    guard let reason = response[pointer: "/error/data/reason"]?.stringValue, !reason.isEmpty else { return "\(code) no reason" }
    if let pointer = response[pointer: "/error/data/pointer"] {
        return "\(code) \(pointer.stringValue.map { $0.isEmpty ? "\"\"" : $0 } ?? "pointer?")"
    }
    return "\(code) -"
}

/// Sends each request (one per line) as `uid` (and gid `uid`) through `setpriv … socat`,
/// and returns the responses in order. The socket must be reachable by that uid.
package func callAsUser(_ uid: Int, _ requests: [JSONValue], socket: String) throws -> [JSONValue] {
    let lines = requestLines(requests)
    let output = try runCapturingOutput(
        "/usr/bin/setpriv",
        ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/socat", "-t", "10", "-", "UNIX-CONNECT:\(socket)"],
        input: lines
    )
    return try output.split(separator: "\n").map { try IndependentJSON.parse(String($0)) }
}

/// Request objects as lines, each with `jsonrpc` and (unless it has one) an id: its position from 1.
package func requestLines(_ requests: [JSONValue]) -> String {
    var lines = ""
    for (index, request) in requests.enumerated() {
        guard case .object(var object) = request else { continue }
        object["jsonrpc"] = "2.0"
        if object["id"] == nil { object["id"] = .number(JSONNumber(index + 1)) }
        lines += JSONValue.object(object).compactText + "\n"
    }
    return lines
}

/// A request object for `callAsUser`.
package func request(_ method: String, _ params: JSONValue) -> JSONValue {
    ["method": .string(method), "params": params]
}

extension HeraldProcess {
    /// A standalone daemon whose socket any uid may use (mode 0666, folder 0755).
    package static func openToEveryone(arguments: [String] = []) throws -> HeraldProcess {
        let herald = try HeraldProcess(.standalone, arguments: ["--socket-mode", "0666"] + arguments)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: herald.folder.path)
        return herald
    }
}
