/// How long a test waits for an event before it fails: a bound against a hang, not a timing.
let eventWait: Duration = .seconds(30)

/// The first value `pick` takes from `stream`, or nil when none came within ``eventWait``.
func first<Element: Sendable, Value: Sendable>(
    of stream: AsyncStream<Element>, _ pick: @escaping @Sendable (Element) -> Value?
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask {
            for await element in stream {
                if let value = pick(element) { return value }
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
