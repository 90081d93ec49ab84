import CCRC32C
import HeraldCore

/// CRC-32C (Castagnoli, the polynomial of iSCSI and ext4), which each snapshot carries
/// over its header and over its payload, and each change log record over its body.
///
/// SSE4.2's crc32 instruction where the processor has it (every x86-64 since 2008): the
/// change log checksums every change on the request's path (docs/performance.md,
/// "Durability"). Elsewhere slicing-by-8 in plain Swift, about 1–2 GB/s.
package struct CRC32C: Sendable {
    private static let hardware = herald_crc32c_hardware_available() != 0

    private static let tables: [[UInt32]] = {
        let polynomial: UInt32 = 0x82F6_3B78
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1
            }
            tables[0][byte] = crc
        }
        for byte in 0..<256 {
            var crc = tables[0][byte]
            for slice in 1..<8 {
                crc = tables[0][Int(crc & 0xFF)] ^ (crc >> 8)
                tables[slice][byte] = crc
            }
        }
        return tables
    }()

    private var state: UInt32 = 0xFFFF_FFFF

    package init() {}

    /// The checksum of `bytes` alone.
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }

    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    package var value: UInt32 { state ^ 0xFFFF_FFFF }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !Self.hardware else {
            if let base = bytes.baseAddress { state = herald_crc32c_hardware(state, base, bytes.count) }
            return
        }
        updateBySlicing(bytes)
    }

    /// The table-driven way, for processors without the instruction; tests compare the two.
    package mutating func updateBySlicing(_ bytes: UnsafeRawBufferPointer) {
        var crc = state
        let count = bytes.count
        var index = 0
        Self.tables.withUnsafeBufferPointer { all in
            let t0 = all[0], t1 = all[1], t2 = all[2], t3 = all[3]
            let t4 = all[4], t5 = all[5], t6 = all[6], t7 = all[7]
            t0.withUnsafeBufferPointer { t0 in
                t1.withUnsafeBufferPointer { t1 in
                    t2.withUnsafeBufferPointer { t2 in
                        t3.withUnsafeBufferPointer { t3 in
                            t4.withUnsafeBufferPointer { t4 in
                                t5.withUnsafeBufferPointer { t5 in
                                    t6.withUnsafeBufferPointer { t6 in
                                        t7.withUnsafeBufferPointer { t7 in
                                            while count - index >= 8 {
                                                let low = bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
                                                let high = bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                                                crc =
                                                    t7[Int(low & 0xFF)] ^ t6[Int((low >> 8) & 0xFF)]
                                                    ^ t5[Int((low >> 16) & 0xFF)] ^ t4[Int(low >> 24)]
                                                    ^ t3[Int(high & 0xFF)] ^ t2[Int((high >> 8) & 0xFF)]
                                                    ^ t1[Int((high >> 16) & 0xFF)] ^ t0[Int(high >> 24)]
                                                index += 8
                                            }
                                            while index < count {
                                                crc = t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                                                index += 1
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        state = crc
    }
}
