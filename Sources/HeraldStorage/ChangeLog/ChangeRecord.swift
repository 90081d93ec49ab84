import FoundationEssentials
import HeraldCore
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One acknowledged change, as the change log keeps it: who made it and when, and either
/// what it stored (a donation, ``Change/donation(app:interaction:)``) or the request that
/// made it, to run again through the same rule with the same caller, params and clock
/// value (``Change/request(params:generated:)``).
///
/// A donation is kept as what the store keeps — its interaction as stored, identifier
/// drawn and text digested — so that replay stores it with no JSON parse and no rule run
/// twice; its record is about half the size of its params (docs/performance.md, "Durability").
package struct ChangeRecord: Sendable, Hashable {
    /// The method's wire name; a name starting with `tick:` is periodic work of heraldd
    /// itself (summaries due, snoozes returned, Focus changes due, retention).
    package var method: String
    package var caller: Caller
    /// The clock value the rule saw.
    package var appliedAt: Date
    package var change: Change

    /// What a record holds of its change.
    package enum Change: Sendable, Hashable {
        /// The request's params, as the JSON text it sent, and what it drew at random when
        /// it was applied (an identifier it had none for), in the order drawn: replay runs
        /// the rule again and hands them back instead of drawing again.
        case request(params: [UInt8], generated: [String])
        /// A donation stored under the caller's uid and `app`: its interaction as the store
        /// keeps it, the store's own record (``HeraldCore/PreparedDonation``).
        case donation(app: String, record: EncodedInteraction)
    }

    /// A request's record.
    package init(method: String, caller: Caller, appliedAt: Date, params: [UInt8], generated: [String] = []) {
        self.method = method
        self.caller = caller
        self.appliedAt = appliedAt
        self.change = .request(params: params, generated: generated)
    }

    /// A donation's record.
    package init(donationBy caller: Caller, appliedAt: Date, app: String, record: EncodedInteraction) {
        self.method = DonateMethod.name
        self.caller = caller
        self.appliedAt = appliedAt
        self.change = .donation(app: app, record: record)
    }

    /// Moves the change out, leaving a request with nothing in it: what it holds is handed
    /// on without a copy. A replay reads a million records, and a copy of each change, as
    /// `(consume record).change` still made, retained its record and app name once more.
    package mutating func takeChange() -> Change {
        var change = Change.request(params: [], generated: [])
        swap(&change, &self.change)
        return change
    }

    /// A donation's record, its interaction encoded.
    package init(donationBy caller: Caller, appliedAt: Date, app: String, interaction: Interaction) {
        self.init(donationBy: caller, appliedAt: appliedAt, app: app, record: EncodedInteraction(interaction))
    }
}

extension ChangeRecord {
    /// The byte after the caller that says what a format version 2 body holds.
    private enum Kind {
        static let request: UInt8 = 0
        static let donation: UInt8 = 1
    }

    /// The record's body (what its length and checksum cover), format version 2:
    /// appliedAt (Float64 bits of seconds since 1970, LE), uid, gid (UInt32 LE), pid
    /// (Int32 LE), flags (UInt8: 1 administrator, 2 has an app), app source (UInt8) and
    /// app id (string), then the kind (UInt8) and what it holds:
    /// - 0, a request: method (string), params (UInt32 length LE + bytes), generated
    ///   (UInt16 count LE, each a string);
    /// - 1, a donation: app (string), then the interaction as a snapshot's interaction
    ///   record holds it from its flags on (``InteractionRecordLayout``), to the body's end.
    ///
    /// A string is a UInt16 length LE and UTF-8 bytes. Format version 1 has no kind: a
    /// request's members follow the caller (``init(body:version:)`` reads both).
    ///
    /// Version 1 is written only to show it is still read (tests, `herald-bench
    /// change-log-fill --record-format params`), and holds only requests.
    package func encodeBody(into bytes: inout [UInt8], version: UInt16 = ChangeLogFile.version) {
        switch change {
        case .request(let params, let generated):
            Self.encodeRequest(
                method: method, caller: caller, appliedAt: appliedAt, params: params, generated: generated, into: &bytes,
                version: version)
        case .donation(let app, let record):
            precondition(version != 1, "Format version 1 holds no donation records.")
            Self.encodeDonation(by: caller, appliedAt: appliedAt, app: app, record: record, into: &bytes)
        }
    }

    /// A request's body, encoded from its parts (``Change/request(params:generated:)``).
    package static func encodeRequest(
        method: String, caller: Caller, appliedAt: Date, params: some Collection<UInt8>, generated: [String], into bytes: inout [UInt8],
        version: UInt16 = ChangeLogFile.version
    ) {
        encodeCaller(caller, appliedAt: appliedAt, into: &bytes)
        if version != 1 { bytes.append(Kind.request) }
        bytes.appendShortString(method)
        bytes.appendLittleEndian(UInt32(params.count))
        bytes.append(contentsOf: params)
        appendGenerated(generated, to: &bytes)
    }

    /// A request's body's last member: the values it drew.
    private static func appendGenerated(_ generated: [String], to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(UInt16(min(generated.count, Int(UInt16.max))))
        for value in generated.prefix(Int(UInt16.max)) { bytes.appendShortString(value) }
    }

    /// A request's whole record but its time, the values it draws and its frame, encoded
    /// before the state's lock, as a donation's is (``preparedDonation(by:app:record:)``):
    /// under the lock ``sealRequest(_:appliedAt:generated:)`` finishes it.
    ///
    /// The params are a slice of the request's text, not any collection: called from
    /// heraldd, a generic function of this module runs unspecialized, looking its types'
    /// metadata and witness tables up in the runtime on each call (docs/performance.md,
    /// "Where the default's extra CPU goes").
    package static func preparedRequest(method: String, caller: Caller, params: ArraySlice<UInt8>) -> [UInt8] {
        var record: [UInt8] = []
        // Room for the frame, the caller, a few drawn identifiers.
        record.reserveCapacity(params.count + method.utf8.count + (caller.app?.id.utf8.count ?? 0) + 192)
        ChangeLogFile.appendUnsealedRecord(to: &record) { bytes in
            encodeCaller(caller, appliedAt: Date(timeIntervalSince1970: 0), into: &bytes)
            bytes.append(Kind.request)
            bytes.appendShortString(method)
            bytes.appendLittleEndian(UInt32(params.count))
            bytes.append(contentsOf: params)
        }
        return record
    }

    /// Finishes a record of ``preparedRequest(method:caller:params:)``: the values the
    /// request drew appended, then its time and frame written in (``seal(_:appliedAt:)``).
    package static func sealRequest(_ record: inout [UInt8], appliedAt: Date, generated: [String]) {
        appendGenerated(generated, to: &record)
        seal(&record, appliedAt: appliedAt)
    }

    /// A donation's body: the store's record of the interaction (``EncodedInteraction``),
    /// copied as it is.
    /// Written in one append (``append(_:to:_:)``): every donation under the default
    /// durability encodes one before the state's lock.
    package static func encodeDonation(
        by caller: Caller, appliedAt: Date, app: String, record: EncodedInteraction, into bytes: inout [UInt8]
    ) {
        withShortUTF8(caller.app?.id ?? "") { appID in
            withShortUTF8(app) { app in
                record.bytes.withUnsafeBytes { interaction in
                    append(callerSize(appID: appID) + 1 + 2 + app.count + interaction.count, to: &bytes) { body in
                        writeCaller(caller, appliedAt: appliedAt, appID: appID, to: &body)
                        body.put(Kind.donation)
                        body.putShortString(app)
                        body.put(interaction)
                    }
                }
            }
        }
    }

    /// A donation's whole record but its time and frame, encoded before the state's lock:
    /// ``ChangeLog/append(prepared:appliedAt:answered:)`` writes in the time the rule saw
    /// and seals it under the lock (``seal(_:appliedAt:)``), then copies the bytes. Under the
    /// lock that replaces walking the interaction (docs/performance.md, "Durability").
    ///
    package static func preparedDonation(by caller: Caller, app: String, record interaction: EncodedInteraction) -> [UInt8] {
        var record: [UInt8] = []
        record.reserveCapacity(ChangeLogFile.recordOverhead + interaction.bytes.count + 64 + app.utf8.count)
        ChangeLogFile.appendUnsealedRecord(to: &record) {
            encodeDonation(by: caller, appliedAt: Date(timeIntervalSince1970: 0), app: app, record: interaction, into: &$0)
        }
        return record
    }

    /// Writes `appliedAt` into a record of ``preparedDonation(by:app:interaction:)`` — the
    /// first member of its body — and then its frame.
    package static func seal(_ record: inout [UInt8], appliedAt: Date) {
        record.withUnsafeMutableBytes { raw in
            raw.storeBytes(
                of: appliedAt.timeIntervalSince1970.bitPattern.littleEndian, toByteOffset: ChangeLogFile.recordOverhead, as: UInt64.self)
        }
        ChangeLogFile.sealRecord(&record, at: 0)
    }

    /// What every body begins with: the time, then the caller.
    private static func encodeCaller(_ caller: Caller, appliedAt: Date, into bytes: inout [UInt8]) {
        withShortUTF8(caller.app?.id ?? "") { appID in
            append(callerSize(appID: appID), to: &bytes) { writeCaller(caller, appliedAt: appliedAt, appID: appID, to: &$0) }
        }
    }

    /// The bytes of the time and the caller, whose app id is `appID`.
    private static func callerSize(appID: UnsafeRawBufferPointer) -> Int {
        8 + 4 + 4 + 4 + 1 + 1 + 2 + appID.count
    }

    private static func writeCaller(_ caller: Caller, appliedAt: Date, appID: UnsafeRawBufferPointer, to body: inout BodyWriter) {
        body.put(appliedAt.timeIntervalSince1970.bitPattern)
        body.put(caller.uid)
        body.put(caller.gid)
        body.put(UInt32(bitPattern: caller.pid))
        body.put((caller.isAdministrator ? 1 : 0) | (caller.app != nil ? 2 : 0) as UInt8)
        body.put(caller.app.map { sourceCode($0.source) } ?? 0)
        body.putShortString(appID)
    }

    /// A body's bytes written in place into room of the size worked out for them.
    private struct BodyWriter {
        var rest: UnsafeMutableRawBufferPointer

        mutating func put<Value: FixedWidthInteger>(_ value: Value) {
            rest.storeBytes(of: value.littleEndian, as: Value.self)
            rest = UnsafeMutableRawBufferPointer(rebasing: rest[MemoryLayout<Value>.size...])
        }

        mutating func put(_ bytes: UnsafeRawBufferPointer) {
            rest.copyMemory(from: bytes)
            rest = UnsafeMutableRawBufferPointer(rebasing: rest[bytes.count...])
        }

        /// A string: its UInt16 length, then its bytes (see ``withShortUTF8(_:_:)``).
        mutating func putShortString(_ utf8: UnsafeRawBufferPointer) {
            put(UInt16(utf8.count))
            put(utf8)
        }
    }

    /// Appends the `size` bytes `write` writes, in one append: a dozen appends, each
    /// checking the array's room and uniqueness, cost a donation's record 115–160 ns
    /// (docs/performance.md, "A second day of runs").
    private static func append(_ size: Int, to bytes: inout [UInt8], _ write: (inout BodyWriter) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { buffer in
            var body = BodyWriter(rest: buffer)
            write(&body)
            precondition(body.rest.isEmpty, "A record's part fills the size worked out for it.")
            bytes.append(contentsOf: UnsafeRawBufferPointer(buffer))
        }
    }

    /// `text`'s UTF-8 in place, cut at UInt16.max bytes as a record's strings are
    /// (``Swift/Array/appendShortString(_:)``).
    private static func withShortUTF8<Result>(_ text: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var text = text
        return text.withUTF8 { body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0.prefix(Int(UInt16.max))))) }
    }

    /// The app names the records read so far ended with, for the next record's read to
    /// reuse (``ByteReader/readString(reusing:)``).
    ///
    /// Made anew every ``renewal`` records. A restart reads the records on one thread and
    /// applies them on another, which releases each record's names. A single name object
    /// shared by every record would have its reference count written by both threads at
    /// once, its cache line passed between the cores on every record (docs/performance.md,
    /// "Durability"). Renewed within each batch the replay hands on, the reading thread
    /// retains one object while the applying thread releases an older one.
    package struct RecentNames {
        var callerApp = ""
        var donor = ""
        /// Records read since the names were last made anew.
        private var reads = 0

        /// How many records one name object serves at most: a part of the replay's batch.
        static let renewal = 256

        package init() {}

        /// Counts a record about to be read, first forgetting the names once they served
        /// ``renewal`` records.
        mutating func countRead() {
            if reads == Self.renewal { self = RecentNames() }
            reads += 1
        }
    }

    /// Reads a body of format `version` (1 or 2); nil when it does not hold exactly one record.
    package init?(body: UnsafeRawBufferPointer, version: UInt16 = ChangeLogFile.version) {
        var names = RecentNames()
        self.init(body: body, version: version, names: &names)
    }

    /// The same, reusing the app names of the record before (`names`) and leaving this
    /// one's there.
    package init?(body: UnsafeRawBufferPointer, version: UInt16 = ChangeLogFile.version, names: inout RecentNames) {
        names.countRead()
        var reader = ByteReader(body)
        guard let bits = reader.read(UInt64.self), let uid = reader.read(UInt32.self), let gid = reader.read(UInt32.self),
            let pid = reader.read(UInt32.self), let flags = reader.read(UInt8.self), let source = reader.read(UInt8.self),
            let appID = reader.readString(reusing: names.callerApp), flags & ~3 == 0
        else { return nil }
        names.callerApp = appID
        var app: AppIdentity?
        if flags & 2 != 0 {
            guard let source = Self.source(source), !appID.isEmpty else { return nil }
            app = AppIdentity(id: appID, source: source)
        }
        let time = Double(bitPattern: bits)
        guard time.isFinite else { return nil }
        let caller = Caller(uid: uid, gid: gid, pid: Int32(bitPattern: pid), isAdministrator: flags & 1 != 0, app: app)
        let appliedAt = Date(timeIntervalSince1970: time)
        let kind = version == 1 ? Kind.request : reader.read(UInt8.self)
        switch kind {
        case Kind.request:
            guard let method = reader.readString(), let paramsCount = reader.read(UInt32.self),
                let params = reader.readBytes(Int(paramsCount)), let count = reader.read(UInt16.self)
            else { return nil }
            var generated: [String] = []
            for _ in 0..<count {
                guard let value = reader.readString() else { return nil }
                generated.append(value)
            }
            guard reader.isAtEnd else { return nil }
            self.init(method: method, caller: caller, appliedAt: appliedAt, params: params, generated: generated)
        case Kind.donation:
            guard let donor = reader.readString(reusing: names.donor), let record = Self.interaction(body, from: reader.offset)
            else { return nil }
            names.donor = donor
            self.init(donationBy: caller, appliedAt: appliedAt, app: donor, record: record)
        default:
            return nil
        }
    }

    /// The interaction record that fills `body` from `offset`, checked and its bytes kept;
    /// nil when it does not hold exactly one, or holds a time that is not a number.
    private static func interaction(_ body: UnsafeRawBufferPointer, from offset: Int) -> EncodedInteraction? {
        var reader = InteractionRecordReader(file: body, range: offset..<body.count, appCount: 0, rareMembers: .json)
        guard let record = try? EncodedInteraction(reading: &reader), reader.isAtEnd else { return nil }
        if let date = record.date, !date.timeIntervalSinceReferenceDate.isFinite { return nil }
        return record
    }

    private static func sourceCode(_ source: AppIdentity.Source) -> UInt8 {
        switch source {
        case .snap: 1
        case .flatpak: 2
        case .systemdUnit: 3
        }
    }

    private static func source(_ code: UInt8) -> AppIdentity.Source? {
        switch code {
        case 1: .snap
        case 2: .flatpak
        case 3: .systemdUnit
        default: nil
        }
    }
}

extension [UInt8] {
    mutating func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func appendShortString(_ text: String) {
        var text = text
        // A native string's bytes in one copy, rather than a view's byte by byte.
        text.withUTF8 { utf8 in
            let kept = UnsafeBufferPointer(rebasing: utf8.prefix(Int(UInt16.max)))
            appendLittleEndian(UInt16(kept.count))
            append(contentsOf: kept)
        }
    }
}

/// Reads little-endian values from a buffer, never past its end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func read<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
        let size = MemoryLayout<Value>.size
        guard remaining >= size else { return nil }
        defer { offset += size }
        return Value(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Value.self))
    }

    mutating func readBytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return [UInt8](UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
    }

    /// A UInt16 length and that many bytes of UTF-8, validated where they lie: no array
    /// between, and none of the generic validation's type look-ups (docs/performance.md,
    /// "Durability"). Nil when they are short or not UTF-8.
    mutating func readString() -> String? {
        readString(reusing: "")
    }

    /// The same, `previous` itself when the bytes are its own: a log's donations name
    /// the same few apps again and again, and each would be an allocation of its own.
    mutating func readString(reusing previous: String) -> String? {
        guard let utf8 = readUTF8() else { return nil }
        var previous = previous
        // Compared a word at a time (memcmp), where `elementsEqual` goes a byte at a time.
        if previous.utf8.count == utf8.count,
            utf8.isEmpty || previous.withUTF8({ memcmp($0.baseAddress!, utf8.baseAddress!, utf8.count) == 0 })
        {
            return previous
        }
        return try? String(copying: UTF8Span(validating: utf8.span))
    }

    /// A UInt16 length, then where that many bytes lie; moves past them.
    private mutating func readUTF8() -> UnsafeBufferPointer<UInt8>? {
        guard let count = read(UInt16.self), remaining >= Int(count) else { return nil }
        defer { offset += Int(count) }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(count)]).assumingMemoryBound(to: UInt8.self)
    }
}
