import NIOCore

/// A connection's output: the responses gathered since the last flush, in one buffer (see
/// ``ConnectionStateMachine/OutputAction``); and how the array each response is written
/// into is kept from one request to the next.
struct ConnectionOutput {
    /// The room a buffer of gathered responses starts with: sixteen `donate` answers.
    static let bufferCapacity = 2048
    /// The room of the response array kept between requests; a larger one, after a large
    /// response, is given up, so that an idle connection does not keep it.
    static let responseCapacity = 4096

    private var gathered: ByteBuffer?

    /// Bytes gathered and not yet passed on.
    var gatheredBytes: Int { gathered?.readableBytes ?? 0 }

    /// Adds `bytes` to what is gathered.
    mutating func gather(_ bytes: [UInt8], allocator: ByteBufferAllocator) {
        if gathered == nil {
            gathered = allocator.buffer(capacity: Self.bufferCapacity)
        }
        gathered!.writeBytes(bytes)
    }

    /// What is gathered, to pass on; nil when nothing is.
    mutating func takeGathered() -> ByteBuffer? {
        defer { gathered = nil }
        return gathered
    }

    /// Empties a connection's response array for the next request.
    static func clear(_ response: inout [UInt8]) {
        if response.capacity > Self.responseCapacity {
            response = []
            response.reserveCapacity(Self.responseCapacity)
        } else {
            response.removeAll(keepingCapacity: true)
        }
    }
}
