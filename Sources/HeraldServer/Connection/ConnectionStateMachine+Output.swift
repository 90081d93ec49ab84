/// Output: the responses to one read are gathered into one buffer and written once, at the
/// flush that ends the read, so that a client that pipelines gets the answers to one read
/// in one write; bounded by ``outputBytesPerWrite``, so that the channel's writability (the
/// unread-output bound) keeps up with what is gathered.
extension ConnectionStateMachine {
    /// Gathered responses are passed on to the channel once they reach this many bytes.
    static let outputBytesPerWrite = 16 << 10

    enum OutputAction: Equatable {
        /// Add the response to what is gathered; the read's flush sends it.
        case gather
        /// Add it, then pass what is gathered on (unflushed): it reached the bound.
        case gatherAndSend
        /// Pass what is gathered on, then this response by itself: it is past the bound,
        /// and copying it would gain nothing.
        case sendGatheredThenWrite
    }

    /// Where a response of `byteCount` bytes goes, with `gathered` bytes waiting.
    func output(forResponseOf byteCount: Int, gathered: Int) -> OutputAction {
        if byteCount >= Self.outputBytesPerWrite { return .sendGatheredThenWrite }
        return gathered + byteCount >= Self.outputBytesPerWrite ? .gatherAndSend : .gather
    }
}
