import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension BusMessage {
    /// The next value, of whatever type it is: a variant's content is read as `.variant`.
    /// Arrays of bytes longer than `byteLimit` are passed over, their length kept
    /// (`.oversizedBytes`), so a 50 MB `image-data` costs no copy. A file descriptor's
    /// regular file is read, up to that limit, only where the caller `readsDescriptors`
    /// (``BusFileDescriptor``): elsewhere it is passed on to nothing, so not read at all.
    package func readValue(byteLimit: Int, readsDescriptors: Bool = false) throws(BusError) -> BusValue {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>? = nil
        try check(sd_bus_message_peek_type(pointer, &type, &contents), "look at the next value")
        let contentSignature = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"): return .string(try readString())
        case UInt8(ascii: "o"), UInt8(ascii: "g"):
            var value: UnsafePointer<CChar>? = nil
            try check(sd_bus_message_read_basic(pointer, type, &value), "read a path or a signature")
            let text = value.map { String(cString: $0) } ?? ""
            return type == CChar(UInt8(ascii: "o")) ? .objectPath(text) : .signature(text)
        case UInt8(ascii: "y"): return .byte(try readBasic(type, UInt8(0)))
        case UInt8(ascii: "b"): return .boolean(try readBasic(type, Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int16(try readBasic(type, Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try readBasic(type, UInt16(0)))
        case UInt8(ascii: "i"): return .int32(try readBasic(type, Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try readBasic(type, UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try readBasic(type, Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try readBasic(type, UInt64(0)))
        case UInt8(ascii: "d"): return .double(try readBasic(type, Double(0)))
        case UInt8(ascii: "h"):
            let number = try readBasic(type, Int32(-1))
            let contents = readsDescriptors ? Self.contents(ofRegularFile: number, byteLimit: byteLimit) : nil
            return .fileDescriptor(BusFileDescriptor(number: number, contents: contents))
        case UInt8(ascii: "v"):
            try enter(type, contentSignature)
            let inner = try readValue(byteLimit: byteLimit, readsDescriptors: readsDescriptors)
            try leave()
            return .variant(inner)
        case UInt8(ascii: "a") where contentSignature == "y":
            var bytes: UnsafeRawPointer? = nil
            var size = 0
            try check(sd_bus_message_read_array(pointer, CChar(UInt8(ascii: "y")), &bytes, &size), "read bytes")
            guard size <= byteLimit else { return .oversizedBytes(size) }
            return .bytes(bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? [])
        case UInt8(ascii: "a") where contentSignature == "{sv}":
            return .dictionary(try readDictionary(byteLimit: byteLimit, readsDescriptors: readsDescriptors))
        case UInt8(ascii: "a"):
            try enter(type, contentSignature)
            var values: [BusValue] = []
            while try !atEnd() { values.append(try readValue(byteLimit: byteLimit, readsDescriptors: readsDescriptors)) }
            try leave()
            return .array(element: contentSignature, values)
        case UInt8(ascii: "r"):
            try enter(type, contentSignature)
            var fields: [BusValue] = []
            while try !atEnd() { fields.append(try readValue(byteLimit: byteLimit, readsDescriptors: readsDescriptors)) }
            try leave()
            return .structure(fields)
        default:
            throw BusError("read a value of type \(Character(UnicodeScalar(UInt8(bitPattern: type))))", returned: -EINVAL)
        }
    }

    /// The bytes of the regular file `descriptor` names, from its start, when it holds at
    /// most `byteLimit`; nil for anything else (a pipe or a socket could keep the reader
    /// waiting, and is not read at all).
    private static func contents(ofRegularFile descriptor: Int32, byteLimit: Int) -> [UInt8]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= byteLimit else { return nil }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, size - done, off_t(done)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            done += read
        }
        return done == size ? bytes : nil
    }

    /// A string-keyed dictionary of variants (`a{sv}`), each value read whole (a variant's
    /// content, not `.variant`), in the order sent.
    package func readDictionary(byteLimit: Int, readsDescriptors: Bool = false) throws(BusError) -> [BusEntry] {
        try enter(CChar(UInt8(ascii: "a")), "{sv}")
        var entries: [BusEntry] = []
        while true {
            let entered = sd_bus_message_enter_container(pointer, CChar(UInt8(ascii: "e")), "sv")
            try check(entered, "enter a dictionary entry")
            if entered == 0 { break }
            let key = try readString()
            var value = try readValue(byteLimit: byteLimit, readsDescriptors: readsDescriptors)
            if case .variant(let inner) = value { value = inner }
            entries.append(BusEntry(key: key, value: value))
            try leave()
        }
        try leave()
        return entries
    }

    /// An `Int32`, read as the Desktop Notifications `expire_timeout` is sent.
    package func readInt32() throws(BusError) -> Int32 {
        try readBasic(CChar(UInt8(ascii: "i")), Int32(0))
    }

    /// Whether the current container (or the message) has no more values.
    private func atEnd() throws(BusError) -> Bool {
        let result = sd_bus_message_at_end(pointer, 0)
        try check(result, "look for the end of a container")
        return result > 0
    }

    private func readBasic<Value: BitwiseCopyable>(_ type: CChar, _ initial: Value) throws(BusError) -> Value {
        var value = initial
        try withUnsafeMutableBytes(of: &value) { bytes throws(BusError) in
            try check(sd_bus_message_read_basic(pointer, type, bytes.baseAddress), "read a value")
        }
        return value
    }

    private func enter(_ type: CChar, _ contents: String) throws(BusError) {
        try check(sd_bus_message_enter_container(pointer, type, contents), "enter a container")
    }

    private func leave() throws(BusError) {
        try check(sd_bus_message_exit_container(pointer), "leave a container")
    }
}
