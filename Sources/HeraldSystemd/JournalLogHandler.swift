import Logging

/// A swift-log handler that turns log records into journal entries for a ``JournalWriter``.
///
/// Each record becomes `PRIORITY` (from the level), `MESSAGE`, `CODE_FILE`, `CODE_LINE`,
/// `CODE_FUNC`, `SYSLOG_IDENTIFIER`, `HERALD_LOGGER` (the logger's label), and one
/// `HERALD_<KEY>` field per metadata item, the key uppercased with anything other than
/// letters and digits turned into `_` (`request-id` becomes `HERALD_REQUEST_ID`). Logging
/// never blocks: the writer drops entries when its queue is full, and counts them.
package struct JournalLogHandler: LogHandler {
    private let label: String
    private let writer: JournalWriter
    private let syslogIdentifier: String

    package var logLevel: Logger.Level = .info
    package var metadataProvider: Logger.MetadataProvider?
    package var metadata = Logger.Metadata()

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package init(
        label: String,
        writer: JournalWriter,
        syslogIdentifier: String = "heraldd",
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.label = label
        self.writer = writer
        self.syslogIdentifier = syslogIdentifier
        self.metadataProvider = metadataProvider
    }

    /// Makes every `Logger` in the process log through `writer`. Call once, at start-up.
    package static func bootstrap(
        writer: JournalWriter,
        logLevel: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        LoggingSystem.bootstrap(
            { label, provider in
                var handler = JournalLogHandler(label: label, writer: writer, metadataProvider: provider)
                handler.logLevel = logLevel
                return handler
            },
            metadataProvider: metadataProvider
        )
    }

    package func log(event: LogEvent) {
        writer.submit(entry(for: event))
    }

    /// The journal entry for `event`.
    func entry(for event: LogEvent) -> JournalEntry {
        var entry = JournalEntry()
        entry.appendUnchecked(name: "PRIORITY", value: String(Self.priority(for: event.level).rawValue))
        entry.appendUnchecked(name: "MESSAGE", value: event.message.description)
        entry.appendUnchecked(name: "CODE_FILE", value: event.file)
        entry.appendUnchecked(name: "CODE_LINE", value: String(event.line))
        entry.appendUnchecked(name: "CODE_FUNC", value: event.function)
        entry.appendUnchecked(name: "SYSLOG_IDENTIFIER", value: syslogIdentifier)
        if !label.isEmpty {
            entry.appendUnchecked(name: "HERALD_LOGGER", value: label)
        }
        for (key, value) in effectiveMetadata(for: event).sorted(by: { $0.key < $1.key }) {
            entry.appendUnchecked(name: JournalField.sanitizedName(key, prefix: "HERALD_"), value: "\(value)")
        }
        return entry
    }

    /// The handler's metadata, overridden by the provider's, overridden by the record's,
    /// plus the record's error — the order swift-log's StreamLogHandler uses.
    private func effectiveMetadata(for event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided, uniquingKeysWith: { _, provided in provided })
        }
        if let explicit = event.metadata, !explicit.isEmpty {
            merged.merge(explicit, uniquingKeysWith: { _, explicit in explicit })
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    /// The syslog priority for a swift-log level: trace and debug are both `debug`.
    package static func priority(for level: Logger.Level) -> JournalPriority {
        switch level {
        case .trace, .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }
}
