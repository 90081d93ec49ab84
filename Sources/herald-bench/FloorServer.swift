import Foundation
import Glibc

/// The floor: a server that does nothing but answer each request line with a canned line of
/// Herald's size, so a load run against it measures the socket and the generator alone.
///
/// One thread per connection reads big chunks, finds the lines, and writes every answer to
/// one read in one write. It copies each request's `"id":` digits into its answer (an array
/// of them for a batch line), so the generator checks the floor exactly as it checks Herald.
struct FloorServer {
    let socketPath: String
    /// Bytes in one answer line, newline included.
    let responseBytes: Int

    private static let idMark: [UInt8] = Array(#""id":"#.utf8)
    private static let elementHead: [UInt8] = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private static let resultHead: [UInt8] = Array(#","result":{"pad":""#.utf8)
    private static let elementTail: [UInt8] = Array(#""}}"#.utf8)

    func run() throws -> Never {
        let listener = try UnixSocket.listen(on: socketPath)
        FileHandle.standardError.write(Data("floor: serving on \(socketPath), \(responseBytes)-byte answers\n".utf8))
        while true {
            guard let client = listener.accept() else { continue }
            let responseBytes = self.responseBytes
            let thread = Thread { Self.serve(client, responseBytes: responseBytes) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private static func serve(_ socket: UnixSocket, responseBytes: Int) {
        defer { socket.close() }
        let padding = [UInt8](repeating: UInt8(ascii: "x"), count: max(responseBytes, 64))
        var capacity = 1 << 20
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        var output: [UInt8] = []
        output.reserveCapacity(1 << 20)
        var ids: [Range<Int>] = []

        while true {
            growIfFull(&buffer, capacity: &capacity, filled: filled)
            let scanFrom = filled
            let count = socket.read(into: buffer + filled, count: capacity - filled)
            guard count > 0 else { return }
            filled += count
            var lineStart = 0
            var cursor = scanFrom
            while cursor < filled, let newline = memchr(buffer + cursor, 0x0A, filled - cursor) {
                let end = buffer.distance(to: newline)
                let line = UnsafeRawBufferPointer(start: buffer + lineStart, count: end - lineStart)
                answer(line, padding: padding, responseBytes: responseBytes, ids: &ids, into: &output)
                lineStart = end + 1
                cursor = lineStart
            }
            if lineStart > 0 {
                if lineStart < filled { memmove(buffer, buffer + lineStart, filled - lineStart) }
                filled -= lineStart
            }
            if !output.isEmpty {
                guard socket.writeAll(output) else { return }
                output.removeAll(keepingCapacity: true)
            }
        }
    }

    @inline(__always)
    private static func answer(
        _ line: UnsafeRawBufferPointer,
        padding: [UInt8],
        responseBytes: Int,
        ids: inout [Range<Int>],
        into output: inout [UInt8]
    ) {
        guard let first = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        ids.removeAll(keepingCapacity: true)
        var position = first
        while let mark = ByteSearch.find(idMark, in: line, from: position) {
            let digits = mark + idMark.count
            let end = parseDecimal(line, from: digits)?.end ?? digits
            ids.append(digits..<end)
            position = end
        }
        let batch = line[first] == UInt8(ascii: "[")
        if ids.isEmpty { ids.append(0..<0) }
        let overhead = elementHead.count + resultHead.count + elementTail.count
        let elementBytes =
            batch
            ? (responseBytes - 1 - 2 - (ids.count - 1)) / ids.count
            : responseBytes - 1
        if batch { output.append(UInt8(ascii: "[")) }
        for (index, id) in ids.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: elementHead)
            if id.isEmpty {
                output.append(contentsOf: Array("null".utf8))
            } else {
                output.append(contentsOf: line[id])
            }
            output.append(contentsOf: resultHead)
            let pad = max(0, elementBytes - overhead - (id.isEmpty ? 4 : id.count))
            output.append(contentsOf: padding[..<min(pad, padding.count)])
            output.append(contentsOf: elementTail)
        }
        if batch { output.append(UInt8(ascii: "]")) }
        output.append(0x0A)
    }
}
