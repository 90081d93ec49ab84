/// Splits a connection's byte stream into JSON texts, incrementally, over bytes the caller
/// keeps (a NIO cumulation buffer: see `JSONTextDecoder` in HeraldServer).
///
/// Texts are objects or arrays, separated by any whitespace; a text may span lines, arrive
/// split across any number of reads, and several may arrive in one. The caller shows the
/// framer every byte it has not yet been told to drop, and drops what each ``Step`` says.
///
/// One scan per byte in the common case: a text that begins in the bytes shown is read to
/// a ``JSONTape`` straight away, which finds its end and its values in the same pass. Only when
/// that fails — the text has not arrived whole, or it is not valid JSON — does the framer
/// balance brackets outside strings (minding escapes), resuming where it stopped on each
/// call, and hand the text on unparsed once it is complete, for the parser to read or
/// reject. The depth limit is the parser's alone: the bracket scan only counts levels.
///
/// Bytes before the current text are dropped as soon as they are scanned, so the caller
/// holds at most `maxTextBytes` plus one read. A garbage line is not held at all beyond its
/// preview, but it counts against `maxTextBytes` like a text.
package struct JSONTextFramer {
    /// What the caller does after a call: hand on `event`, if any, then drop the first
    /// `consumed` bytes of those shown. Without an event, every byte shown was scanned and
    /// the framer needs more.
    package struct Step: Equatable {
        package var event: FramingEvent?
        package var consumed: Int
    }

    private enum State {
        /// Between texts: skipping whitespace.
        case between
        /// Inside a text that the parser could not read whole; it begins at the first byte shown.
        case text
        /// Inside a line that does not begin with `{` or `[`, waiting for its newline.
        case garbage
        /// After `.tooLarge` or `finish(in:)`: nothing more comes out.
        case closed
    }

    package let maxTextBytes: Int
    package let maxDepth: Int

    private var state = State.between
    /// Bytes of the stream dropped so far: a shown byte's index plus this is its offset in
    /// the whole stream, for what a person is told.
    private var dropped = 0

    // The bracket scan of the current text.
    /// Bytes of the current text scanned so far.
    private var scanned = 0
    /// The current text's first byte, counted from the start of the stream.
    private var textOffset = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Whether each open bracket up to `maxDepth` is `[` (true) or `{` (false), so that a
    /// closer of the wrong kind ends a malformed text at once instead of leaving it open.
    private var openers: [Bool] = []
    /// Set after a malformed text: the rest of its line is skipped without another error.
    private var skipsRestOfLine = false

    // The current garbage line, which is not held.
    private var garbagePreview: [UInt8] = []
    private var garbageLength = 0

    package init(maxTextBytes: Int = 1 << 20, maxDepth: Int = 64) {
        self.maxTextBytes = maxTextBytes
        self.maxDepth = maxDepth
    }

    /// True when non-whitespace bytes of an unfinished text are held: the peer is in the
    /// middle of a request. `unconsumed` is what the caller holds.
    package func hasPartialText(in unconsumed: UnsafeRawBufferPointer) -> Bool {
        switch state {
        case .text, .garbage:
            return true
        case .closed:
            return false
        case .between:
            // Bytes not scanned yet; none once `next(in:)` has returned no event.
            return unconsumed.contains { !Self.isWhitespace($0) }
        }
    }

    /// What is unfinished, in words for a person, when part of a text is held: `an object
    /// opened at byte 0 was never closed (2 levels still open, inside a string)`. Byte
    /// offsets count from the first byte of the stream. Nil between texts.
    package var unfinishedText: String? {
        switch state {
        case .text:
            let kind = openers.first == true ? "an array" : "an object"
            var details: [String] = []
            if depth > 1 { details.append("\(depth) levels still open") }
            if inString { details.append("inside a string") }
            let detail = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
            return "\(kind) opened at byte \(textOffset) was never closed\(detail)"
        case .garbage:
            return "a line that is not a JSON object or array has no newline yet"
        case .between, .closed:
            return nil
        }
    }

    /// The next event in `bytes` — every byte the caller holds and has not dropped — or a
    /// step without one when more bytes are needed.
    package mutating func next(in bytes: UnsafeRawBufferPointer) -> Step {
        let step = scan(bytes)
        dropped += step.consumed
        return step
    }

    /// The input ended: reports a complete text still held, then an unfinished one
    /// (`.truncated`, or `.garbage` for a line without its newline), then nothing for good.
    package mutating func finish(in bytes: UnsafeRawBufferPointer) -> Step {
        let step = next(in: bytes)
        if step.event != nil || state == .closed {
            return step
        }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[step.consumed...])
        let event: FramingEvent? =
            switch state {
            case .text: .truncated(preview: FramingEvent.preview(rest))
            case .garbage: skipsRestOfLine ? nil : .garbage(preview: FramingEvent.preview(garbagePreview))
            case .between, .closed: nil
            }
        close()
        return Step(event: event, consumed: bytes.count)
    }

    private mutating func close() {
        state = .closed
        garbagePreview = []
        openers = []
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    private mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Step {
        // A text carried over from the last call begins at the first byte shown.
        var index = state == .text ? scanned : 0
        var textStart = 0
        var consumed = 0
        while index < bytes.count {
            switch state {
            case .between:
                let byte = bytes[index]
                if Self.isWhitespace(byte) {
                    index += 1
                    consumed = index
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    // The one pass: the text is read to a tape, which finds its end, when
                    // it is all here and valid.
                    let window = UnsafeRawBufferPointer(rebasing: bytes[index..<min(bytes.count, index + maxTextBytes)])
                    if let (value, length) = JSONTape.parsePrefix(window, maxDepth: maxDepth) {
                        return Step(event: .text(index..<index + length, parsed: value), consumed: index + length)
                    }
                    textStart = index
                    beginText(opener: byte, at: dropped + index)
                    index += 1
                } else {
                    state = .garbage
                    garbagePreview.removeAll(keepingCapacity: true)
                    garbageLength = 0
                }

            case .text:
                if let step = scanText(bytes, textStart: textStart, &index) {
                    return step
                }

            case .garbage:
                let lineStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                    index += 1
                }
                let room = FramingEvent.previewLimit - garbagePreview.count
                if room > 0 {
                    garbagePreview.append(contentsOf: bytes[lineStart..<min(index, lineStart + room)])
                }
                garbageLength += index - lineStart
                consumed = index
                if garbageLength > maxTextBytes {
                    close()
                    return Step(event: .tooLarge(limit: maxTextBytes), consumed: bytes.count)
                }
                guard index < bytes.count else { break }
                index += 1
                consumed = index
                state = .between
                if skipsRestOfLine {
                    skipsRestOfLine = false
                    continue
                }
                return Step(event: .garbage(preview: FramingEvent.preview(garbagePreview)), consumed: consumed)

            case .closed:
                return Step(event: nil, consumed: bytes.count)
            }
        }
        if state == .text {
            scanned = index - textStart
            consumed = textStart
        }
        return Step(event: nil, consumed: consumed)
    }

    private mutating func beginText(opener: UInt8, at offset: Int) {
        state = .text
        textOffset = offset
        depth = 1
        inString = false
        escaped = false
        openers.removeAll(keepingCapacity: true)
        openers.append(opener == UInt8(ascii: "["))
    }

    /// Balances the current text's brackets from `index`; the step once it ends or grows too large.
    private mutating func scanText(_ bytes: UnsafeRawBufferPointer, textStart: Int, _ index: inout Int) -> Step? {
        let sizeLimit = textStart + maxTextBytes
        let stop = min(bytes.count, sizeLimit)
        var i = index
        while i < stop {
            if inString, !escaped {
                i = PlainStringBytes.skip(bytes, from: i, to: stop)
                guard i < stop else { break }
            }
            let byte = bytes[i]
            i += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth <= maxDepth {
                    openers.append(byte == UInt8(ascii: "["))
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth <= maxDepth, let opener = openers.popLast(), opener != (byte == UInt8(ascii: "]")) {
                    // `[{…]`: the text can never balance. Hand what there is to the parser,
                    // which reports the parse error, and skip the rest of the line.
                    index = i
                    state = .garbage
                    skipsRestOfLine = true
                    garbagePreview.removeAll(keepingCapacity: true)
                    garbageLength = 0
                    return Step(event: .text(textStart..<i, parsed: nil), consumed: i)
                }
                depth -= 1
                if depth == 0 {
                    index = i
                    state = .between
                    return Step(event: .text(textStart..<i, parsed: nil), consumed: i)
                }
            default:
                break
            }
        }
        index = i
        if i == sizeLimit, bytes.count > sizeLimit {
            close()
            return Step(event: .tooLarge(limit: maxTextBytes), consumed: bytes.count)
        }
        return nil
    }
}
