import HeraldProtocol

/// A JSON-RPC 2.0 response object, written straight to bytes: a result is written by its
/// method between ``writeResultOpening(id:to:)`` and ``writeResultClosing(to:)``, with no
/// `JSONValue` between.
enum ResponseObject {
    /// Appends `{"jsonrpc":"2.0","id":…,"result":`, which the result follows.
    static func writeResultOpening(id: JSONValue, to output: inout [UInt8]) {
        output.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        id.write(to: &output)
        output.append(contentsOf: #","result":"#.utf8)
    }

    /// Closes the response a result was written into.
    static func writeResultClosing(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "}"))
    }

    /// Appends the compact error response, `{"jsonrpc":"2.0","id":…,"error":…}`.
    static func writeError(id: JSONValue, error: RPCError, to output: inout [UInt8]) {
        output.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        id.write(to: &output)
        output.append(contentsOf: #","error":"#.utf8)
        error.jsonValue.write(to: &output)
        output.append(UInt8(ascii: "}"))
    }
}
