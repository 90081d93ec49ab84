import HeraldCore
import HeraldProtocol

extension MethodEnvironment {
    /// What the envelope around a page may take besides its items: `jsonrpc`, the result's
    /// other members, `nextCursor`. The request's own text is counted too, for its `id`.
    static let pageEnvelopeBytes = 1024

    /// The bytes a page's items may take: `--max-response-bytes` less the envelope.
    func pageBytes(_ context: RequestContext) -> Int {
        max(Self.pageEnvelopeBytes, maxResponseBytes - Self.pageEnvelopeBytes - (context.textByteCount ?? 0))
    }

    /// A page of `list-notifications`.
    func notificationPage(_ context: RequestContext) -> PageBudget<HeraldNotification> {
        PageBudget(maxBytes: pageBytes(context)) { Self.writtenSize($0) }
    }

    /// A page of `get-focus` (and the bound of one Focus's definition).
    func focusPage(_ context: RequestContext) -> PageBudget<FocusConfiguration> {
        PageBudget(maxBytes: pageBytes(context)) { focus in
            (try? JSONValueEncoder().encode(focus)).map(Self.writtenSize) ?? 0
        }
    }

    /// The bytes `value` takes as the response writes it, with the comma after it: how
    /// each item of a page is measured before the response is built.
    static func writtenSize(_ value: JSONValue) -> Int {
        var bytes: [UInt8] = []
        value.write(to: &bytes)
        return bytes.count + 1
    }

    /// The same for a value that writes itself, with no `JSONValue` between.
    static func writtenSize(_ value: some JSONDirectEncodable) -> Int {
        var bytes: [UInt8] = []
        value.writeJSON(to: &bytes)
        return bytes.count + 1
    }
}
