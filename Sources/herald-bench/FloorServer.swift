import Foundation
import Glibc

/// The floor: a server that does nothing but answer each request line with a canned line of
/// Herald's size, so a load run against it measures the socket and the generator alone.
///
/// One thread per connection reads big chunks, finds the lines, and writes every answer to
/// one read in one write. Its answers are ``FloorAnswer``'s, as the NIO floor's are.
struct FloorServer {
    let socketPath: String
    /// Bytes in one answer line, newline included.
    let responseBytes: Int


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
        let answer = FloorAnswer(responseBytes: responseBytes)
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
                answer.append(answering: line, ids: &ids, to: &output)
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
}
