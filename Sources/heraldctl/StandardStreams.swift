#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// heraldctl's standard input, output and error as bytes, read and written with the
/// system calls themselves: Foundation's `FileHandle` would link swift-corelibs-foundation
/// and ICU into heraldctl (docs/performance.md, "What brings in ICU").
enum StandardStreams {
    /// All of standard input, to its end (`call -`, `categories set --file -`).
    static func readInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count == 0 || errno != EINTR {
                return bytes
            }
        }
    }

    /// Writes `bytes` to standard output whole, unbuffered.
    static func writeOutput(_ bytes: [UInt8]) {
        write(bytes, to: STDOUT_FILENO)
    }

    /// Writes `text` to standard error whole, unbuffered.
    static func writeError(_ text: String) {
        write(Array(text.utf8), to: STDERR_FILENO)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
