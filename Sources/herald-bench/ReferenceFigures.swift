/// What `scripts/bench.sh` records besides load runs: the machine, redis-benchmark, journald's ceiling.
enum ReferenceFigures {
    /// The run: when, which commit, on what machine.
    struct Machine: Codable, Sendable {
        var kind = "meta"
        var timestamp: String
        var commit: String
        var dirty: Bool
        var quick: Bool
        var kernel: String
        var cpu: String
        var cores: Int
        var memoryKiB: Int
        var swift: String
        var redis: String
        var loadAverage: String
    }

    /// `redis-benchmark -t set -c N -P P` against redis-server on its own Unix socket.
    struct RedisSet: Codable, Sendable {
        var kind = "redis"
        var connections: Int
        var pipeline: Int
        var requests: Int
        var requestsPerSecond: Double
        var p50Ms: Double?
        var p99Ms: Double?
        /// redis-server's user and system time per SET, in microseconds.
        var cpuUsPerRequest: Double?
    }

    /// `scripts/journal-ceiling.c`: `sd_journal_send` with Herald's fields, as fast as it goes.
    struct JournalCeiling: Codable, Sendable {
        var kind = "ceiling"
        var entries: Int
        var seconds: Double
        var entriesPerSecond: Double
    }
}
