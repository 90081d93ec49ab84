/// What a floor server answers to one request line: a canned line of Herald's size that
/// carries the request's ids, so the load generator checks a floor exactly as it checks
/// Herald.
///
/// It copies each request's `"id":` digits into its answer (an array of them for a batch
/// line) and pads the rest to the response size of the scenario.
struct FloorAnswer: Sendable {
    /// Bytes in one answer line, newline included.
    let responseBytes: Int
    private let padding: [UInt8]

    private static let idMark: [UInt8] = Array(#""id":"#.utf8)
    private static let elementHead: [UInt8] = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private static let resultHead: [UInt8] = Array(#","result":{"pad":""#.utf8)
    private static let elementTail: [UInt8] = Array(#""}}"#.utf8)

    init(responseBytes: Int) {
        self.responseBytes = responseBytes
        self.padding = [UInt8](repeating: UInt8(ascii: "x"), count: max(responseBytes, 64))
    }

    /// Appends the answer to `line` (without its newline) to `output`; `ids` is scratch
    /// space kept between calls.
    @inline(__always)
    func append(answering line: UnsafeRawBufferPointer, ids: inout [Range<Int>], to output: inout [UInt8]) {
        guard let first = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        ids.removeAll(keepingCapacity: true)
        var position = first
        while let mark = ByteSearch.find(Self.idMark, in: line, from: position) {
            let digits = mark + Self.idMark.count
            let end = parseDecimal(line, from: digits)?.end ?? digits
            ids.append(digits..<end)
            position = end
        }
        let batch = line[first] == UInt8(ascii: "[")
        if ids.isEmpty { ids.append(0..<0) }
        let overhead = Self.elementHead.count + Self.resultHead.count + Self.elementTail.count
        let elementBytes =
            batch
            ? (responseBytes - 1 - 2 - (ids.count - 1)) / ids.count
            : responseBytes - 1
        if batch { output.append(UInt8(ascii: "[")) }
        for (index, id) in ids.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: Self.elementHead)
            if id.isEmpty {
                output.append(contentsOf: Array("null".utf8))
            } else {
                output.append(contentsOf: line[id])
            }
            output.append(contentsOf: Self.resultHead)
            let pad = max(0, elementBytes - overhead - (id.isEmpty ? 4 : id.count))
            output.append(contentsOf: padding[..<min(pad, padding.count)])
            output.append(contentsOf: Self.elementTail)
        }
        if batch { output.append(UInt8(ascii: "]")) }
        output.append(0x0A)
    }
}
