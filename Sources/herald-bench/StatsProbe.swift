import Glibc
import HeraldProtocol

/// Reads Herald's `stats` over a connection of its own: the journal's written and dropped counts.
enum StatsProbe {
    struct Journal: Sendable {
        var written: UInt64
        var dropped: UInt64
    }

    static func journal(socketPath: String) throws -> Journal {
        let socket = try UnixSocket.connect(to: socketPath)
        defer { socket.close() }
        guard socket.writeAll(Array(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"#.utf8) + [0x0A]) else {
            throw UnixSocket.Failure(description: "stats: write failed")
        }
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !line.contains(0x0A) {
            let count = chunk.withUnsafeMutableBytes { socket.read(into: $0.baseAddress!, count: $0.count) }
            guard count > 0 else { throw UnixSocket.Failure(description: "stats: no answer") }
            line += chunk[..<count]
        }
        let value = try JSONParser.parse(line[..<line.firstIndex(of: 0x0A)!])
        guard let journal = value.objectValue?["result"]?.objectValue?["journal"]?.objectValue,
            let written = journal["written"]?.numberValue?.intValue,
            let dropped = journal["dropped"]?.numberValue?.intValue
        else {
            throw UnixSocket.Failure(description: "stats: no journal counts in \(String(decoding: line, as: UTF8.self))")
        }
        return Journal(written: UInt64(written), dropped: UInt64(dropped))
    }
}
