import HeraldClient

/// How long a test waits for an event before it fails: a bound against a hang, not a timing.
let eventWait: Duration = .seconds(30)

/// The first event of `events` that `matches` answers for, or nil when none came within ``eventWait``.
func firstEvent<Value: Sendable>(
    of events: AsyncStream<HeraldEvent>, _ matches: @escaping @Sendable (HeraldEvent) -> Value?
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask {
            for await event in events {
                if let value = matches(event) { return value }
            }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: eventWait)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
