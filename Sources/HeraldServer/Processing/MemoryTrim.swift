import Synchronization

/// Gives memory freed after a large request or response back to the system.
///
/// glibc's allocator keeps freed memory in its arenas; after a request of a megabyte and
/// its parse tree, resident memory would stay at its high-water mark. A connection marks
/// large work as done, and the server's once-a-second tick trims then, so that a stream
/// of large requests costs one `malloc_trim` a second, not one each.
final class MemoryTrim: Sendable {
    private let pending = Atomic<Bool>(false)

    /// Marks that a large request or response was handled.
    func largeWorkDone() {
        pending.store(true, ordering: .relaxed)
    }

    /// Trims the allocator's arenas if large work was done since the last call.
    func trimIfDue() {
        guard pending.exchange(false, ordering: .relaxed) else { return }
        _ = heraldMallocTrim(0)
    }
}

/// glibc's `malloc_trim(3)`, which the Glibc module does not export.
@_silgen_name("malloc_trim")
private func heraldMallocTrim(_ pad: Int) -> Int32
