/// Donates the interactions an `update-content` run refers to: `pool-0` … `pool-<n-1>`,
/// 64 to a batch line, each answer checked.
enum InteractionPool {
    static func donate(socketPath: String, count: UInt64) throws {
        let socket = try UnixSocket.connect(to: socketPath)
        defer { socket.close() }
        let template = RequestTemplate(Scenario.donation(identifier: "pool-{KEY}"))
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var next: UInt64 = 0
        while next < count {
            let first = next
            let end = min(count, next + 64)
            var line: [UInt8] = [UInt8(ascii: "[")]
            while next < end {
                if next > first { line.append(UInt8(ascii: ",")) }
                template.render(id: next + 1, key: next, into: &line)
                next += 1
            }
            line += [UInt8(ascii: "]"), 0x0A]
            guard socket.writeAll(line) else { throw UnixSocket.Failure(description: "pool: write failed") }
            var filled = 0
            while filled == 0 || buffer[filled - 1] != 0x0A {
                let count = buffer.withUnsafeMutableBytes {
                    socket.read(into: $0.baseAddress! + filled, count: $0.count - filled)
                }
                guard count > 0 else { throw UnixSocket.Failure(description: "pool: no answer") }
                filled += count
            }
            let failure = buffer.withUnsafeBytes {
                ResponseCheck.failure(
                    line: UnsafeRawBufferPointer(rebasing: $0[..<(filled - 1)]),
                    firstID: first + 1,
                    count: Int(end - first),
                    batch: true,
                    fullParse: false
                )
            }
            if let failure { throw UnixSocket.Failure(description: "pool: \(failure)") }
        }
    }
}
