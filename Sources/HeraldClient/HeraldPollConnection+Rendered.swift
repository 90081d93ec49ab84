import Glibc
import HeraldProtocol

/// heraldd's answer to a line of requests the caller wrote itself
/// (``HeraldPollConnection/sendRendered(count:decoding:_:)``).
package struct RenderedAnswer {
    /// The id of the line's first request; a batch's others follow it, one apart.
    package var firstID: Int
    /// The requests the line held: 1, or a batch's size.
    package var count: Int
    /// The answer line's length, its newline left out.
    package var bytes: Int
    /// The answers as heraldd wrote them, parsed: only when asked for (`decoding`), or when
    /// the quick look could not vouch for the line (an error among them, another shape).
    package var parsed: JSONValue?
    /// The first error among the answers, the line's answering other ids, or the connection's end.
    package var error: HeraldError?
}

/// A line of rendered requests waiting for its answer.
struct RenderedLine {
    var firstID: Int
    var count: Int
    var decoding: Bool
}

/// The rendered lines waiting for their answers, in the order sent: heraldd answers in that
/// order, so an answer's first id is the oldest line's, found without hashing; another is
/// looked for among the rest.
struct RenderedLines {
    private var lines: [RenderedLine] = []
    private var head = 0

    var count: Int { lines.count - head }
    var isEmpty: Bool { head == lines.count }

    mutating func append(_ line: RenderedLine) { lines.append(line) }

    /// The line whose first id is `firstID`.
    func line(_ firstID: Int) -> RenderedLine? {
        if head < lines.count, lines[head].firstID == firstID { return lines[head] }
        return lines[head...].first { $0.firstID == firstID }
    }

    /// Takes out the line whose first id is `firstID`.
    mutating func remove(_ firstID: Int) -> RenderedLine? {
        guard head < lines.count else { return nil }
        guard lines[head].firstID == firstID else {
            guard let index = lines[head...].firstIndex(where: { $0.firstID == firstID }) else { return nil }
            return lines.remove(at: index)
        }
        let line = lines[head]
        head += 1
        if head == lines.count {
            lines.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= lines.count {
            lines.removeFirst(head)
            head = 0
        }
        return line
    }

    /// Takes out every line, in the order sent.
    mutating func removeAll() -> [RenderedLine] {
        defer {
            lines.removeAll()
            head = 0
        }
        return Array(lines[head...])
    }
}

extension HeraldPollConnection {
    /// Queues requests the caller writes itself, for a program that sends many of the same
    /// kind and needs no typed result (herald-bench's load): `write` appends `count`
    /// requests with the ids `firstID ..< firstID + count` to `output`, one request or a
    /// batch's array of them, and the connection adds the newline. Returns the first id.
    ///
    /// Nothing is written yet: what is queued goes at the next ``handle(_:)`` (each call
    /// writes what its answers' handlers queued, once, after them). The answer line comes
    /// to ``onRenderedAnswer``, or to the closure of ``handle(_:renderedAnswer:)``, matched
    /// by its first id. A line whose every answer begins
    /// `{"jsonrpc":"2.0","id":N,"result":` with the ids in order, as heraldd writes them,
    /// is vouched for by that look alone and not parsed, unless `decoding`: reading the
    /// results is what costs a load generator most (docs/performance.md, "The load
    /// generator's own cost").
    @discardableResult
    package func sendRendered(
        count: Int = 1, decoding: Bool = false, _ write: (_ firstID: Int, _ output: inout [UInt8]) -> Void
    ) throws(HeraldError)
        -> Int
    {
        guard fileDescriptor >= 0 else { throw HeraldError(kind: .closed, message: "the connection was closed") }
        let firstID = nextID
        nextID += count
        write(firstID, &output)
        output.append(UInt8(ascii: "\n"))
        rendered.append(RenderedLine(firstID: firstID, count: count, decoding: decoding))
        return firstID
    }

    /// Hands a line to `renderedAnswer` when it answers rendered requests, by the quick
    /// look where it vouches for the line; false when it answers none.
    func handleRenderedLine(_ line: ArraySlice<UInt8>, _ renderedAnswer: (RenderedAnswer) throws -> Void) throws -> Bool {
        let quick = line.withUnsafeBytes { bytes -> (firstID: Int, vouched: Bool)? in
            guard let firstID = Self.firstID(in: bytes), let waiting = rendered.line(firstID) else { return nil }
            return (firstID, !waiting.decoding && Self.vouches(for: bytes, firstID: firstID, count: waiting.count))
        }
        guard let quick else { return false }
        guard quick.vouched else {
            let parsed = try? JSONParser.parse(line, maxDepth: AnswerRouter.maximumDepth)
            try answerRendered(quick.firstID, bytes: line.count, parsed: parsed ?? .null, renderedAnswer)
            return true
        }
        let count = rendered.remove(quick.firstID)!.count
        try renderedAnswer(RenderedAnswer(firstID: quick.firstID, count: count, bytes: line.count))
        return true
    }

    /// The rendered requests `firstID` names: their answers, parsed, checked and handed on.
    func answerRendered(_ firstID: Int, bytes: Int, parsed: JSONValue, _ renderedAnswer: (RenderedAnswer) throws -> Void) throws {
        guard let waiting = rendered.remove(firstID) else { return }
        var answer = RenderedAnswer(firstID: firstID, count: waiting.count, bytes: bytes, parsed: parsed)
        let answers: [JSONValue]
        switch parsed {
        case .array(let elements): answers = elements
        case .object: answers = [parsed]
        default: answers = []
        }
        var expected = Set(firstID..<(firstID + waiting.count))
        for element in answers {
            guard let id = element.member("id")?.integer, expected.remove(id) != nil else { break }
            if answer.error == nil, let error = element.member("error") { answer.error = HeraldError(answer: error) }
        }
        if !expected.isEmpty, answer.error == nil {
            answer.error = HeraldError(
                kind: .unreadable, message: "heraldd's answer to requests \(firstID)… is not one answer to each of them")
        }
        try renderedAnswer(answer)
    }

    /// The rendered lines still waiting, answered with the connection's end, in the order sent.
    func renderedLost(_ lost: HeraldError) -> [RenderedAnswer] {
        rendered.removeAll().map { RenderedAnswer(firstID: $0.firstID, count: $0.count, bytes: 0, error: lost) }
    }

    private static let answerPrefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private static let resultMark = Array(#","result":"#.utf8)

    /// The id of an answer line, or of a batch's first answer, when it begins as heraldd writes answers.
    private static func firstID(in line: UnsafeRawBufferPointer) -> Int? {
        let start = line.first == UInt8(ascii: "[") ? 1 : 0
        guard matches(answerPrefix, in: line, at: start) else { return nil }
        return decimal(in: line, at: start + answerPrefix.count)?.value
    }

    /// Whether each of the `count` answers begins `{"jsonrpc":"2.0","id":N,"result":`, N
    /// counting from `firstID`: heraldd's own results, in the order asked.
    private static func vouches(for line: UnsafeRawBufferPointer, firstID: Int, count: Int) -> Bool {
        let batch = line.first == UInt8(ascii: "[")
        guard batch || count == 1 else { return false }
        var position = batch ? 1 : 0
        for offset in 0..<count {
            if offset > 0 {
                guard let next = find(answerPrefix, in: line, from: position) else { return false }
                position = next
            }
            guard matches(answerPrefix, in: line, at: position), let (id, end) = decimal(in: line, at: position + answerPrefix.count),
                id == firstID + offset, matches(resultMark, in: line, at: end)
            else { return false }
            position = end + resultMark.count
        }
        return true
    }

    private static func matches(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard offset >= 0, offset + pattern.count <= bytes.count else { return false }
        return pattern.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress! + offset, pattern.count) == 0 }
    }

    /// The offset of the first `pattern` at or after `offset`.
    private static func find(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        var position = offset
        while position + pattern.count <= bytes.count {
            guard let hit = memchr(bytes.baseAddress! + position, Int32(pattern[0]), bytes.count - position) else { return nil }
            position = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
            if matches(pattern, in: bytes, at: position) { return position }
            position += 1
        }
        return nil
    }

    /// The decimal digits at `offset` and the offset after them.
    private static func decimal(in bytes: UnsafeRawBufferPointer, at offset: Int) -> (value: Int, end: Int)? {
        var index = offset
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), index - offset < 18 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > offset ? (value, index) : nil
    }
}
