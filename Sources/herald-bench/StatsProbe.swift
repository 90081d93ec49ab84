import HeraldClient

/// Reads Herald's `stats` over a connection of its own: the journal's written and dropped counts.
enum StatsProbe {
    struct Journal: Sendable {
        var written: UInt64
        var dropped: UInt64
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func journal(socketPath: String) throws -> Journal {
        let heraldd = try HeraldPollConnection(HeraldClient.Configuration(socketPath: socketPath))
        defer { heraldd.close() }
        guard case .stats(let stats) = try heraldd.call(.stats()), let journal = stats.journal else {
            throw Failure(description: "stats: no journal counts (is this heraldd's administrator?)")
        }
        return Journal(written: UInt64(journal.written), dropped: UInt64(journal.dropped))
    }
}
