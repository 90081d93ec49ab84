/// Splits a connection's byte stream into JSON texts, incrementally.
///
/// Texts are objects or arrays, separated by any whitespace; a text may span lines, arrive
/// split across any number of `append`s, and several may arrive in one. The framer only
/// balances brackets outside strings (minding escapes); the parser checks the rest.
///
/// Every byte is scanned once: the scan state survives between appends and never restarts
/// at the beginning of a buffered text. Bytes before the current text are dropped on the
/// next `append`, so the buffer holds at most `maxTextBytes` plus one append, provided the
/// caller calls `next()` until it returns nil after each `append`. A garbage line is not
/// buffered at all beyond its preview, but it counts against `maxTextBytes` like a text.
package struct JSONTextFramer {
    private enum State {
        /// Between texts: skipping whitespace.
        case between
        /// Inside a text that began at `textStart`.
        case text
        /// Inside a line that does not begin with `{` or `[`, waiting for its newline.
        case garbage
        /// After `.tooLarge` or `finish()`: nothing more comes out.
        case closed
    }

    package let maxTextBytes: Int
    package let maxDepth: Int

    private var buffer: [UInt8] = []
    /// Bytes before this index are no longer needed.
    private var consumed = 0
    /// Bytes of the stream dropped from the front of `buffer` so far: a buffer index plus
    /// this is a byte's offset in the whole stream, for what a person is told.
    private var discarded = 0
    /// The next byte to scan.
    private var scanIndex = 0
    private var state = State.between

    // The scan state of the current text.
    private var textStart = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var isTooDeep = false
    /// Whether each open bracket up to `maxDepth` is `[` (true) or `{` (false), so that a
    /// closer of the wrong kind ends a malformed text at once instead of leaving it open.
    private var openers: [Bool] = []
    /// Set after a malformed text: the rest of its line is skipped without another error.
    private var skipsRestOfLine = false

    // The current garbage line, which is not buffered.
    private var garbagePreview: [UInt8] = []
    private var garbageLength = 0

    package init(maxTextBytes: Int = 1 << 20, maxDepth: Int = 64) {
        self.maxTextBytes = maxTextBytes
        self.maxDepth = maxDepth
    }

    /// True when non-whitespace bytes of an unfinished text are buffered: the peer is in the
    /// middle of a request.
    package var hasPartialText: Bool {
        switch state {
        case .text, .garbage:
            return true
        case .closed:
            return false
        case .between:
            // Bytes not scanned yet; none once `next()` has returned nil.
            return buffer[scanIndex...].contains { byte in
                byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r")
                    && byte != UInt8(ascii: "\t")
            }
        }
    }

    /// What is unfinished, in words for a person, when part of a text is buffered: `an
    /// object opened at byte 0 was never closed (2 levels still open, inside a string)`.
    /// Byte offsets count from the first byte the framer was given. Nil between texts.
    package var unfinishedText: String? {
        switch state {
        case .text:
            let kind = openers.first == true ? "an array" : "an object"
            var details: [String] = []
            if depth > 1 { details.append("\(depth) levels still open") }
            if inString { details.append("inside a string") }
            let detail = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
            return "\(kind) opened at byte \(textStart + discarded) was never closed\(detail)"
        case .garbage:
            return "a line that is not a JSON object or array has no newline yet"
        case .between, .closed:
            return nil
        }
    }

    /// The bytes held right now, for tests of the memory bound.
    var bufferedByteCount: Int { buffer.count }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard state != .closed else { return }
        if consumed > 0 {
            if consumed == buffer.count {
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer.removeSubrange(0..<consumed)
            }
            textStart -= consumed
            scanIndex -= consumed
            discarded += consumed
            consumed = 0
        }
        buffer.append(contentsOf: bytes)
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next complete event, or nil when more bytes are needed.
    package mutating func next() -> FramingEvent? {
        guard state != .closed, scanIndex < buffer.count else { return nil }
        // A second reference, so that scanning reads the bytes while it updates `self`.
        let storage = buffer
        return storage.withUnsafeBufferPointer { scan($0) }
    }

    /// The input ended: reports a complete text still buffered, then an unfinished one
    /// (`.truncated`, or `.garbage` for a line without its newline), then nil for good.
    package mutating func finish() -> FramingEvent? {
        if let event = next() {
            return event
        }
        let event: FramingEvent? =
            switch state {
            case .text: .truncated(preview: FramingEvent.preview(buffer[textStart...]))
            case .garbage: skipsRestOfLine ? nil : .garbage(preview: FramingEvent.preview(garbagePreview))
            case .between, .closed: nil
            }
        close()
        return event
    }

    private mutating func close() {
        state = .closed
        buffer = []
        garbagePreview = []
        consumed = 0
        scanIndex = 0
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> FramingEvent? {
        var index = scanIndex
        defer { scanIndex = index }
        while index < bytes.count {
            switch state {
            case .between:
                let byte = bytes[index]
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                    || byte == UInt8(ascii: "\t")
                {
                    index += 1
                    consumed = index
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    state = .text
                    textStart = index
                    depth = 1
                    inString = false
                    escaped = false
                    isTooDeep = depth > maxDepth
                    openers.removeAll(keepingCapacity: true)
                    openers.append(byte == UInt8(ascii: "["))
                    index += 1
                } else {
                    state = .garbage
                    garbagePreview.removeAll(keepingCapacity: true)
                    garbageLength = 0
                }

            case .text:
                if let event = scanText(bytes, &index) {
                    return event
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
                    return .tooLarge(limit: maxTextBytes)
                }
                guard index < bytes.count else { return nil }
                index += 1
                consumed = index
                state = .between
                if skipsRestOfLine {
                    skipsRestOfLine = false
                    continue
                }
                return .garbage(preview: FramingEvent.preview(garbagePreview))

            case .closed:
                return nil
            }
        }
        return nil
    }

    /// Scans the current text from `index`; returns its event once it ends or grows too large.
    private mutating func scanText(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> FramingEvent? {
        let sizeLimit = textStart + maxTextBytes
        let stop = min(bytes.count, sizeLimit)
        var i = index
        while i < stop {
            if inString, !escaped {
                i = PlainStringBytes.skip(UnsafeRawBufferPointer(bytes), from: i, to: stop)
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
                if depth > maxDepth {
                    isTooDeep = true
                } else {
                    openers.append(byte == UInt8(ascii: "["))
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth <= maxDepth, let opener = openers.popLast(), opener != (byte == UInt8(ascii: "]")) {
                    // `[{…]`: the text can never balance. Hand what there is to the parser,
                    // which reports the parse error, and skip the rest of the line.
                    index = i
                    consumed = i
                    state = .garbage
                    skipsRestOfLine = true
                    garbagePreview.removeAll(keepingCapacity: true)
                    garbageLength = 0
                    return .text(Array(bytes[textStart..<i]))
                }
                depth -= 1
                if depth == 0 {
                    index = i
                    consumed = i
                    state = .between
                    if isTooDeep {
                        return .tooDeep(limit: maxDepth)
                    }
                    return .text(Array(bytes[textStart..<i]))
                }
            default:
                break
            }
        }
        index = i
        if i == sizeLimit, bytes.count > sizeLimit {
            close()
            return .tooLarge(limit: maxTextBytes)
        }
        return nil
    }
}
