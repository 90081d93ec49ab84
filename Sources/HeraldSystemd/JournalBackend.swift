import CSystemd
import Glibc

/// What the writer thread does with a batch of entries: one function per ``LogTarget``.
///
/// Called on the writer thread only, one batch at a time; it returns how many entries
/// of the batch failed to be written. It makes each record's entry
/// (``JournalRecord/journalEntry()``) as it writes it, so that a batch of a thousand
/// entries is made and freed one entry at a time, in the same few blocks of memory.
/// Tests inject their own.
package struct JournalBackend: Sendable {
    package let write: @Sendable ([any JournalRecord]) -> Int

    package init(write: @escaping @Sendable ([any JournalRecord]) -> Int) {
        self.write = write
    }

    static func forTarget(_ target: LogTarget, syslogIdentifier: String) -> JournalBackend {
        switch target {
        case .journal: journal(syslogIdentifier: syslogIdentifier)
        case .console: console(fileDescriptor: STDERR_FILENO)
        case .none: JournalBackend { _ in 0 }
        }
    }

    /// Sends each entry with `sd_journal_sendv`, adding `SYSLOG_IDENTIFIER` when it lacks one.
    static func journal(syslogIdentifier: String) -> JournalBackend {
        let identifierField = Array("SYSLOG_IDENTIFIER=\(syslogIdentifier)".utf8)
        return JournalBackend { records in
            records.reduce(0) { failed, record in
                failed + (send(record.journalEntry(), identifierField: identifierField) < 0 ? 1 : 0)
            }
        }
    }

    /// Writes a batch as logfmt lines to `fileDescriptor` with as few `write` calls as it
    /// takes, each stamped with the time the batch is written (as journald stamps what it
    /// receives; a batch is written within milliseconds of its entries).
    static func console(fileDescriptor: Int32) -> JournalBackend {
        JournalBackend { records in
            var text = ""
            let time = Logfmt.now()
            for record in records {
                text.append(Logfmt.line(record.journalEntry(), time: time))
            }
            return writeAll(text, to: fileDescriptor) ? 0 : records.count
        }
    }

    /// Sends one entry: one iovec per field, each pointing into the entry's own buffer.
    /// Returns `sd_journal_sendv`'s result: 0, or a negative errno.
    static func send(_ entry: JournalEntry, identifierField: [UInt8]) -> Int32 {
        guard entry.count > 0 else { return -EINVAL }
        let addIdentifier = !entry.contains(name: "SYSLOG_IDENTIFIER")
        return entry.storage.withUnsafeBytes { storage in
            identifierField.withUnsafeBytes { identifier in
                withUnsafeTemporaryAllocation(of: iovec.self, capacity: entry.count + 1) { vectors in
                    // sd_journal_sendv takes `const struct iovec *` and does not write through iov_base.
                    let base = UnsafeMutableRawPointer(mutating: storage.baseAddress!)
                    var count = 0
                    for span in entry.spans {
                        vectors[count] = iovec(iov_base: base + span.start, iov_len: span.end - span.start)
                        count += 1
                    }
                    if addIdentifier {
                        vectors[count] = iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: identifier.baseAddress!),
                            iov_len: identifier.count
                        )
                        count += 1
                    }
                    return sd_journal_sendv(vectors.baseAddress, Int32(count))
                }
            }
        }
    }

    /// Writes all of `text`, retrying partial writes and EINTR; false on any other error.
    static func writeAll(_ text: String, to fileDescriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let result = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += result
            }
            return true
        }
    }
}
