/// A ``JSONTextFramer`` over bytes held in an array, the way a connection's cumulation
/// buffer holds them: what the framer's tests and the fuzz target drive.
///
/// It copies every text out, and checks that a text the framer parsed on the way is the
/// value the parser reads from the text's bytes alone; a server uses `JSONTextDecoder`.
package struct HeldJSONTexts {
    /// A framed text's bytes, or what else the framer found.
    package enum Framed: Sendable, Equatable {
        case text([UInt8])
        case garbage(preview: String)
        case tooLarge(limit: Int)
        case truncated(preview: String)
    }

    package private(set) var framer: JSONTextFramer
    /// The bytes not yet dropped.
    package private(set) var held: [UInt8] = []

    package init(maxTextBytes: Int = 1 << 20, maxDepth: Int = 64) {
        framer = JSONTextFramer(maxTextBytes: maxTextBytes, maxDepth: maxDepth)
    }

    package mutating func append(_ bytes: some Sequence<UInt8>) {
        held.append(contentsOf: bytes)
    }

    package mutating func next() -> Framed? {
        let step = held.withUnsafeBytes { framer.next(in: $0) }
        return take(step)
    }

    package mutating func finish() -> Framed? {
        let step = held.withUnsafeBytes { framer.finish(in: $0) }
        return take(step)
    }

    package var hasPartialText: Bool {
        held.withUnsafeBytes { framer.hasPartialText(in: $0) }
    }

    private mutating func take(_ step: JSONTextFramer.Step) -> Framed? {
        defer { held.removeFirst(step.consumed) }
        switch step.event {
        case nil:
            return nil
        case .text(let range, let parsed):
            let text = Array(held[range])
            if let parsed {
                let again = try? JSONParser.parse(text, maxDepth: framer.maxDepth)
                precondition(again == parsed.root.value, "The framer's value of \(parsed) differs from its text's.")
                precondition(parsed.bytes == text, "The framer's tape holds other bytes than its text.")
            }
            return .text(text)
        case .garbage(let preview):
            return .garbage(preview: preview)
        case .tooLarge(let limit):
            return .tooLarge(limit: limit)
        case .truncated(let preview):
            return .truncated(preview: preview)
        }
    }
}
