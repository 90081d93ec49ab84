/// Where a method's requests are answered: on the connection's event loop, or on a thread
/// of their own while the connection waits and the event loop goes on serving the others.
package enum MethodPlacement: Sendable, Hashable, Comparable {
    /// On the event loop: the method takes microseconds.
    case eventLoop
    /// On a thread of its own at normal CPU priority: milliseconds a person waits for,
    /// which must not hold an event loop (`list-notifications` of a full list takes about
    /// 100 ms to build and write).
    case thread
    /// On a thread of its own under `SCHED_IDLE`: seconds that may wait for CPU time the
    /// event loops leave (`snapshot`, `suggest-people`).
    case idleThread
}
