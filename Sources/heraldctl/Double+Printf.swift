#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Double {
    /// This number as C's `printf` writes it with `format` ("%.3g", "%.1f"), as Foundation's
    /// `String(format:)` did without linking swift-corelibs-foundation into heraldctl.
    func printed(_ format: String) -> String {
        var buffer = [CChar](repeating: 0, count: 32)
        while true {
            let needed = withVaList([self]) { arguments in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
            }
            guard needed >= buffer.count else {
                return String(decoding: buffer.prefix(max(0, Int(needed))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
        }
    }
}
