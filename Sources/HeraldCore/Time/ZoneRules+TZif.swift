extension ZoneRules {
    /// A zone from the bytes of its TZif file (RFC 8536, versions 1 to 4); nil when they
    /// are not one. Version 2 and later files are read from their 64-bit block and footer.
    init?(identifier: String, tzif bytes: [UInt8]) {
        var reader = TZifReader(bytes: bytes)
        guard var header = reader.header() else { return nil }
        var timeSize = 4
        if header.version >= 2 {
            guard reader.skip(header.dataLength(timeSize: 4)), let second = reader.header() else { return nil }
            header = second
            timeSize = 8
        }
        guard header.typeCount > 0 else { return nil }
        var times: [Int64] = []
        times.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            guard let time = reader.signed(size: timeSize) else { return nil }
            times.append(time)
        }
        var typeIndices: [Int] = []
        for _ in 0..<header.timeCount {
            guard let index = reader.unsigned(size: 1), index < header.typeCount else { return nil }
            typeIndices.append(Int(index))
        }
        var offsets: [Int32] = []
        for _ in 0..<header.typeCount {
            guard let offset = reader.signed(size: 4), reader.skip(2) else { return nil }  // utoff, then isdst and desigidx
            offsets.append(Int32(offset))
        }
        guard reader.skip(header.characterCount + header.leapCount * (timeSize + 4) + header.standardCount + header.utcCount) else { return nil }
        var rule: PosixZoneRule?
        if header.version >= 2, let footer = reader.footer(), !footer.isEmpty {
            // A footer Herald cannot read leaves the last offset in force, as a version 1 file does.
            rule = PosixZoneRule(parsing: footer)
        }
        let transitions = zip(times, typeIndices).map { (at: $0, offset: offsets[$1]) }
        self.init(identifier: identifier, initialOffset: offsets[0], transitions: transitions, rule: rule)
    }
}

/// Reads a TZif file's big-endian fields in order.
private struct TZifReader {
    struct Header {
        var version: Int
        var utcCount: Int
        var standardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var characterCount: Int

        /// The bytes of the data block after this header.
        func dataLength(timeSize: Int) -> Int {
            timeCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4) + standardCount + utcCount
        }
    }

    let bytes: [UInt8]
    var index = 0

    mutating func header() -> Header? {
        guard index + 44 <= bytes.count, Array(bytes[index..<index + 4]) == Array("TZif".utf8) else { return nil }
        let versionByte = bytes[index + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        guard (1...9).contains(version) else { return nil }
        index += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let count = unsigned(size: 4), count < 1 << 24 else { return nil }
            counts.append(Int(count))
        }
        return Header(
            version: version, utcCount: counts[0], standardCount: counts[1], leapCount: counts[2], timeCount: counts[3],
            typeCount: counts[4], characterCount: counts[5])
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, index + count <= bytes.count else { return false }
        index += count
        return true
    }

    mutating func unsigned(size: Int) -> UInt64? {
        guard index + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[index..<index + size] { value = value << 8 | UInt64(byte) }
        index += size
        return value
    }

    mutating func signed(size: Int) -> Int64? {
        guard let value = unsigned(size: size) else { return nil }
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    /// The footer's text between its two newlines.
    mutating func footer() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { return nil }
        guard let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    }
}
