import HeraldProtocol

/// A JSON-RPC 2.0 response object, written straight to bytes.
enum ResponseObject {
    case result(id: JSONValue, result: JSONValue)
    case error(id: JSONValue, error: RPCError)

    /// Appends the compact response, `{"jsonrpc":"2.0","id":…,"result":…}` or `…"error":…}`.
    func write(to output: inout [UInt8]) {
        output.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        switch self {
        case .result(let id, let result):
            id.write(to: &output)
            output.append(contentsOf: #","result":"#.utf8)
            result.write(to: &output)
        case .error(let id, let error):
            id.write(to: &output)
            output.append(contentsOf: #","error":"#.utf8)
            error.jsonValue.write(to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}
