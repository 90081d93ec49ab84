import HeraldProtocol
import HeraldSync

/// herald-sync's reader of the Focus message a broker hands it: any bytes at all.
/// Findings besides a crash, a hang or a leak: a message it takes that does not write and
/// read back as itself, or a payload past the size bound that it took.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncFocus(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let payload = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let message = try? FocusMessage.read(payload) else { return 0 }
    guard payload.count <= FocusMessage.maximumBytes else { fatalError("took a payload of \(payload.count) bytes") }
    guard (try? FocusMessage.read(message.encoded())) == message else { fatalError("a message it took does not read back as itself") }
    return 0
}
