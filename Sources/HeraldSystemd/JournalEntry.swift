/// One journal entry: an ordered list of fields, ready to be handed to journald.
///
/// The fields are kept as `NAME=value` bytes in one buffer, the form `sd_journal_sendv`
/// wants, so that the writer thread points its iovecs into that buffer without copying or
/// re-encoding anything. A name may appear more than once; journald keeps every value.
package struct JournalEntry: Sendable, Hashable {
    /// Every field as `NAME=value`, one after the other.
    private(set) var storage: [UInt8] = []
    /// Where each field lies in `storage`.
    private(set) var spans: [Span] = []

    struct Span: Sendable, Hashable {
        /// Index of the field's first name byte.
        var start: Int
        /// Index of the `=` between name and value.
        var separator: Int
        /// Index one past the value's last byte.
        var end: Int
    }

    /// Creates an entry with no fields.
    package init() {}

    /// Creates an entry with no fields and room for `bytes` bytes of `NAME=value` text in
    /// `fields` fields, so that filling it allocates once.
    package init(reservingBytes bytes: Int, fields: Int) {
        storage.reserveCapacity(bytes)
        spans.reserveCapacity(fields)
    }

    /// Creates an entry from fields in the order given.
    package init(_ fields: [JournalField]) {
        for field in fields {
            append(field)
        }
    }

    /// Creates an entry with `PRIORITY`, `MESSAGE` and then `fields`, whose names are checked.
    package init(
        message: String,
        priority: JournalPriority,
        fields: KeyValuePairs<String, String> = [:]
    ) throws(JournalFieldNameError) {
        append(JournalField(unchecked: "PRIORITY", value: String(priority.rawValue)))
        append(JournalField(unchecked: "MESSAGE", value: message))
        for (name, value) in fields {
            try append(name: name, value: value)
        }
    }

    /// Appends a field.
    package mutating func append(_ field: JournalField) {
        appendUnchecked(name: field.name, value: field.value)
    }

    /// Appends a field, checking its name.
    package mutating func append(name: String, value: String) throws(JournalFieldNameError) {
        try JournalField.validate(name: name)
        appendUnchecked(name: name, value: value)
    }

    /// Appends a field whose name the caller has already checked.
    mutating func appendUnchecked(name: String, value: String) {
        let start = storage.count
        storage.append(contentsOf: name.utf8)
        let separator = storage.count
        storage.append(UInt8(ascii: "="))
        storage.append(contentsOf: value.utf8)
        spans.append(Span(start: start, separator: separator, end: storage.count))
    }

    /// The number of fields.
    package var count: Int { spans.count }

    /// The fields in order.
    package var fields: [JournalField] {
        spans.map { JournalField(unchecked: name(of: $0), value: value(of: $0)) }
    }

    /// The value of the first field called `name`, if any.
    package subscript(name: String) -> String? {
        spans.first(where: { has($0, name: name) }).map(value(of:))
    }

    /// Whether some field is called `name`.
    package func contains(name: String) -> Bool {
        spans.contains(where: { has($0, name: name) })
    }

    private func has(_ span: Span, name: String) -> Bool {
        storage[span.start..<span.separator].elementsEqual(name.utf8)
    }

    func name(of span: Span) -> String {
        String(decoding: storage[span.start..<span.separator], as: UTF8.self)
    }

    func value(of span: Span) -> String {
        String(decoding: storage[(span.separator + 1)..<span.end], as: UTF8.self)
    }
}
