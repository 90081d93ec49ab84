import FoundationEssentials
import HeraldCore

/// One acknowledged change, as the change log keeps it: the request that made it, as it
/// was applied. Replaying it runs the same rule with the same caller, params and clock
/// value, so Core stays pure rules and the log needs no encoding of each change's effect.
///
/// `generated` holds what the request drew at random when it was applied (an identifier
/// it had none for), in the order drawn: replay hands them back instead of drawing again.
package struct ChangeRecord: Sendable, Hashable {
    /// The method's wire name; a name starting with `tick:` is periodic work of heraldd
    /// itself (summaries due, snoozes returned, Focus changes due, retention).
    package var method: String
    package var caller: Caller
    /// The clock value the rule saw.
    package var appliedAt: Date
    /// The request's params, as the JSON text it sent.
    package var params: [UInt8]
    package var generated: [String]

    package init(method: String, caller: Caller, appliedAt: Date, params: [UInt8], generated: [String] = []) {
        self.method = method
        self.caller = caller
        self.appliedAt = appliedAt
        self.params = params
        self.generated = generated
    }
}

extension ChangeRecord {
    /// The record's body (what its length and checksum cover), format version 1:
    /// appliedAt (Float64 bits of seconds since 1970, LE), uid, gid (UInt32 LE), pid
    /// (Int32 LE), flags (UInt8: 1 administrator, 2 has an app), app source (UInt8) and
    /// app id (string), method (string), params (UInt32 length LE + bytes), generated
    /// (UInt16 count LE, each a string). A string is a UInt16 length LE and UTF-8 bytes.
    package func encodeBody(into bytes: inout [UInt8]) {
        bytes.appendLittleEndian(appliedAt.timeIntervalSince1970.bitPattern)
        bytes.appendLittleEndian(caller.uid)
        bytes.appendLittleEndian(caller.gid)
        bytes.appendLittleEndian(UInt32(bitPattern: caller.pid))
        let flags: UInt8 = (caller.isAdministrator ? 1 : 0) | (caller.app != nil ? 2 : 0)
        bytes.append(flags)
        bytes.append(caller.app.map { Self.sourceCode($0.source) } ?? 0)
        bytes.appendShortString(caller.app?.id ?? "")
        bytes.appendShortString(method)
        bytes.appendLittleEndian(UInt32(params.count))
        bytes.append(contentsOf: params)
        bytes.appendLittleEndian(UInt16(min(generated.count, Int(UInt16.max))))
        for value in generated.prefix(Int(UInt16.max)) { bytes.appendShortString(value) }
    }

    /// Reads a body written by ``encodeBody(into:)``; nil when it does not hold exactly one.
    package init?(body: UnsafeRawBufferPointer) {
        var reader = ByteReader(body)
        guard let bits = reader.read(UInt64.self), let uid = reader.read(UInt32.self), let gid = reader.read(UInt32.self),
            let pid = reader.read(UInt32.self), let flags = reader.read(UInt8.self), let source = reader.read(UInt8.self),
            let appID = reader.readString(), let method = reader.readString(), let paramsCount = reader.read(UInt32.self),
            let params = reader.readBytes(Int(paramsCount)), let count = reader.read(UInt16.self)
        else { return nil }
        var generated: [String] = []
        for _ in 0..<count {
            guard let value = reader.readString() else { return nil }
            generated.append(value)
        }
        guard reader.isAtEnd, flags & ~3 == 0 else { return nil }
        var app: AppIdentity?
        if flags & 2 != 0 {
            guard let source = Self.source(source), !appID.isEmpty else { return nil }
            app = AppIdentity(id: appID, source: source)
        }
        let time = Double(bitPattern: bits)
        guard time.isFinite else { return nil }
        self.init(
            method: method,
            caller: Caller(uid: uid, gid: gid, pid: Int32(bitPattern: pid), isAdministrator: flags & 1 != 0, app: app),
            appliedAt: Date(timeIntervalSince1970: time),
            params: params,
            generated: generated
        )
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

    mutating func readString() -> String? {
        guard let count = read(UInt16.self), let utf8 = readBytes(Int(count)) else { return nil }
        return String(validating: utf8, as: UTF8.self)
    }
}
