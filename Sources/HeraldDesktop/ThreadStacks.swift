/// One stack per thread where the notification server stacks none itself: each thread's
/// last bubble, which the thread's next bubble replaces (`replaces_id`).
package struct ThreadStacks: Sendable {
    private var last: [String: Bubble.Key] = [:]

    package init() {}

    /// The shown bubble that `bubble` takes the place of: its own key's, else its thread's
    /// last; nil for a new bubble. `isShown` says whether a key's bubble is on screen.
    package func replaced(by bubble: Bubble, isShown: (Bubble.Key) -> Bool) -> Bubble.Key? {
        if isShown(bubble.key) { return bubble.key }
        guard let thread = bubble.thread, let key = last[thread], isShown(key) else { return nil }
        return key
    }

    /// `bubble` is shown: the next of its thread replaces it.
    package mutating func showed(_ bubble: Bubble) {
        if let thread = bubble.thread { last[thread] = bubble.key }
    }

    /// `key`'s bubble of `thread` closed: the thread's next starts a new bubble.
    package mutating func closed(_ key: Bubble.Key, thread: String?) {
        if let thread, last[thread] == key { last[thread] = nil }
    }

    /// The server went: nothing is shown.
    package mutating func removeAll() {
        last = [:]
    }
}
