import HeraldProtocol
import HeraldSync

/// herald-sync's readers of the messages a broker hands it, the Focus and a Focus
/// definition: any bytes at all, to each. Findings besides a crash, a hang or a leak: a
/// message taken that does not write and read back as itself, or a payload past its size
/// bound that was taken.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncFocus(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let payload = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let message = try? FocusMessage.read(payload) {
        guard payload.count <= FocusMessage.maximumBytes else { fatalError("took a payload of \(payload.count) bytes") }
        guard (try? FocusMessage.read(message.encoded())) == message else { fatalError("a message it took does not read back as itself") }
    }
    if let definition = try? DefinitionMessage.read(payload) {
        guard payload.count <= DefinitionMessage.maximumBytes else { fatalError("took a definition of \(payload.count) bytes") }
        guard (try? DefinitionMessage.read(definition.encoded())) == definition else {
            fatalError("a definition it took does not read back as itself")
        }
    }
    return 0
}
