/// A request line pre-encoded as bytes, with holes for the JSON-RPC id and a key.
///
/// Written as text with `{ID}` and `{KEY}` where the numbers go; rendering appends the
/// literal segments and the decimal digits, so the hot path never touches a JSON encoder.
struct RequestTemplate: Sendable {
    enum Hole: Sendable { case id, key }

    private let segments: [[UInt8]]
    private let holes: [Hole]

    init(_ text: String) {
        let bytes = Array(text.utf8)
        let idMark = Array("{ID}".utf8)
        let keyMark = Array("{KEY}".utf8)
        var segments: [[UInt8]] = []
        var holes: [Hole] = []
        var segment: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: idMark) {
                segments.append(segment)
                holes.append(.id)
                segment = []
                index += idMark.count
            } else if bytes[index...].starts(with: keyMark) {
                segments.append(segment)
                holes.append(.key)
                segment = []
                index += keyMark.count
            } else {
                segment.append(bytes[index])
                index += 1
            }
        }
        segments.append(segment)
        self.segments = segments
        self.holes = holes
    }

    /// Appends the request with `id` and `key` spliced in.
    func render(id: UInt64, key: UInt64, into buffer: inout [UInt8]) {
        for index in holes.indices {
            buffer.append(contentsOf: segments[index])
            appendDecimal(holes[index] == .id ? id : key, to: &buffer)
        }
        buffer.append(contentsOf: segments[segments.count - 1])
    }
}

/// Appends `value` in decimal ASCII.
@inline(__always)
func appendDecimal(_ value: UInt64, to buffer: inout [UInt8]) {
    if value < 10 {
        buffer.append(UInt8(truncatingIfNeeded: value) &+ 48)
        return
    }
    var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { raw in
        while rest > 0 {
            raw[31 - count] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
            rest /= 10
            count += 1
        }
        buffer.append(contentsOf: raw[(32 - count)...])
    }
}

/// Parses decimal ASCII digits starting at `offset`; returns the value and the index after them.
@inline(__always)
func parseDecimal(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> (value: UInt64, end: Int)? {
    var index = offset
    var value: UInt64 = 0
    while index < bytes.count {
        let byte = bytes[index]
        guard byte >= 48 && byte <= 57 else { break }
        value = value &* 10 &+ UInt64(byte - 48)
        index += 1
    }
    return index > offset ? (value, index) : nil
}
