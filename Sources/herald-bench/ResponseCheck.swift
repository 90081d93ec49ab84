import HeraldProtocol

/// Checks one response line against the requests it answers.
///
/// The fast path scans bytes: each element must begin `{"jsonrpc":"2.0","id":<n>,"result":`
/// with the expected ids in order. Anything else — an error, another member order, a
/// reordered batch — and every sampled line go through a full parse.
enum ResponseCheck {
    private static let elementPrefix: [UInt8] = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private static let resultMark: [UInt8] = Array(#","result":"#.utf8)

    /// nil when the line answers ids `firstID ..< firstID + count` with results; else why not.
    static func failure(
        line: UnsafeRawBufferPointer,
        firstID: UInt64,
        count: Int,
        batch: Bool,
        fullParse: Bool
    ) -> String? {
        if !fullParse && scan(line: line, firstID: firstID, count: count, batch: batch) {
            return nil
        }
        return parse(line: line, firstID: firstID, count: count, batch: batch)
    }

    private static func scan(line: UnsafeRawBufferPointer, firstID: UInt64, count: Int, batch: Bool) -> Bool {
        var position = 0
        if batch {
            guard line.count > 0, line[0] == UInt8(ascii: "[") else { return false }
            position = 1
        }
        for element in 0..<count {
            if element > 0 {
                guard position < line.count, let next = ByteSearch.find(elementPrefix, in: line, from: position) else {
                    return false
                }
                position = next
            }
            guard ByteSearch.matches(elementPrefix, in: line, at: position),
                let (id, end) = parseDecimal(line, from: position + elementPrefix.count),
                id == firstID + UInt64(element),
                ByteSearch.matches(resultMark, in: line, at: end)
            else { return false }
            position = end + resultMark.count
        }
        return true
    }

    private static func parse(line: UnsafeRawBufferPointer, firstID: UInt64, count: Int, batch: Bool) -> String? {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return "unparsable response: \(excerpt(line))"
        }
        let elements: [JSONValue]
        if batch {
            guard let array = value.arrayValue, array.count == count else {
                return "expected a batch of \(count): \(excerpt(line))"
            }
            elements = array
        } else {
            elements = [value]
        }
        var expected = Set((0..<UInt64(count)).map { firstID + $0 })
        for element in elements {
            guard let object = element.objectValue,
                object["jsonrpc"]?.stringValue == "2.0",
                let id = object["id"]?.numberValue?.intValue.map(UInt64.init),
                expected.remove(id) != nil
            else { return "unexpected id: \(excerpt(line))" }
            if let error = object["error"]?.objectValue {
                let code = error["code"]?.numberValue?.literal ?? "?"
                let message = error["message"]?.stringValue ?? "?"
                let reason = error["data"]?.objectValue?["reason"]?.stringValue ?? ""
                return "error \(code) \(message): \(reason)"
            }
            guard object["result"] != nil else { return "no result: \(excerpt(line))" }
        }
        return nil
    }

    static func excerpt(_ line: UnsafeRawBufferPointer) -> String {
        String(decoding: line.prefix(240), as: UTF8.self)
    }
}
