import HeraldProtocol
import NIOCore

/// One framed JSON text, as the processor takes it.
package enum RequestText: Sendable {
    /// Read by the framer's parser on the way: the common case, one pass over the bytes.
    case parsed(JSONTape)
    /// Framed by balancing brackets only (it arrived in pieces, or it is not valid JSON):
    /// its bytes, for the parser to read or reject.
    case unparsed(ByteBuffer)

    /// The text's size in bytes.
    var byteCount: Int {
        switch self {
        case .parsed(let tape): tape.byteCount
        case .unparsed(let bytes): bytes.readableBytes
        }
    }
}
