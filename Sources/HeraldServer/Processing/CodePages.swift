#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pages of heraldd's code and read-only data (its own and its libraries') mapped into
/// its memory, which it lets go when it comes to rest (``MemoryTrim``).
///
/// A page of code is mapped when first run, and the kernel maps its neighbours with it (some
/// 64 KiB around each page touched, more where the page cache holds large folios): after
/// start and a few requests, most of heraldd's 15 MB of code counts as resident although it
/// runs a few hundred pages of it (docs/performance.md, "Memory at rest"). Unmapping them
/// keeps them in the page cache: the next request maps again what it runs, a minor fault
/// each, with no read from disk.
enum CodePages {
    /// Unmaps every read-only mapping of a file (code, read-only data) that holds none of its
    /// own copies of pages: a mapping with a page written after it was mapped — relocated
    /// data made read-only after (RELRO), a text relocation, a debugger's breakpoint — is left
    /// as it is. Returns the kilobytes unmapped that were resident; nil when the process's
    /// mappings cannot be read.
    static func release() -> Int? {
        guard let text = readMappings() else { return nil }
        var released = 0
        for mapping in readOnlyFileMappings(in: text) where mapping.anonymousKB == 0 && mapping.residentKB > 0 {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 { released += mapping.residentKB }
        }
        return released
    }

    /// A mapping of `/proc/self/smaps`, with what of it is resident.
    struct Mapping: Equatable {
        var start: UInt
        var end: UInt
        var residentKB = 0
        var anonymousKB = 0
    }

    /// The private read-only mappings of files (`r-xp`, `r--p`) in smaps' `text`, with their
    /// `Rss` and `Anonymous` figures.
    static func readOnlyFileMappings(in text: String) -> [Mapping] {
        var mappings: [Mapping] = []
        var current: Mapping?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.hasSuffix(":") {
                guard current != nil, fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
                if first == "Rss:" { current?.residentKB = kilobytes }
                if first == "Anonymous:" { current?.anonymousKB = kilobytes }
                continue
            }
            // A mapping's header: "start-end perms offset device inode path".
            if let done = current { mappings.append(done) }
            current = nil
            guard fields.count >= 6, fields[1] == "r-xp" || fields[1] == "r--p", fields[4] != "0", fields[5].hasPrefix("/") else {
                continue
            }
            let bounds = first.split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start
            else { continue }
            current = Mapping(start: start, end: end)
        }
        if let done = current { mappings.append(done) }
        return mappings
    }

    /// `/proc/self/smaps` as text; nil if it cannot be read whole.
    private static func readMappings() -> String? {
        let fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[..<got])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
