import FoundationEssentials
import HeraldProtocol

/// The errors a connection's byte stream can cause before any request in it is read: each
/// answered with a null `id`.
extension RPCError {
    /// A line that is not a JSON object or array, skipped.
    static func garbageLine(beginning preview: String) -> RPCError {
        RPCError(.parseError, reason: "A request must be a JSON object or array; the line beginning \(quoted(preview)) was skipped.")
    }

    /// The input ended inside a text.
    static func truncatedText(beginning preview: String) -> RPCError {
        RPCError(.parseError, reason: "The input ended inside a JSON text beginning \(quoted(preview)).")
    }

    /// A text past `--max-request-bytes`; the connection closes after it.
    static func requestTooLarge(limit: Int) -> RPCError {
        RPCError(
            .invalidRequest,
            reason: "The request is larger than \(limit) bytes; the connection is closed.",
            extraData: ["limit": .number(JSONNumber(limit))]
        )
    }

    /// Part of a request, then nothing for `seconds`; `unfinished` says what is unbalanced,
    /// so that a person at socat sees what they left open.
    static func readTimedOut(after seconds: Double, unfinished: String?) -> RPCError {
        let what = unfinished.map { ": \($0)" } ?? ""
        return RPCError(
            .readTimeout,
            reason: "The connection sent part of a request and then nothing for \(seconds) seconds\(what); it is closed."
        )
    }

    private static func quoted(_ preview: String) -> String {
        "\"\(preview.trimmingWhitespace())\""
    }
}
