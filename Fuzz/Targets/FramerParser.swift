import HeraldProtocol

/// The framer and the parser together, as a connection uses them: the input arrives in
/// pieces (their sizes taken from its first byte), each framed text is parsed, and each
/// value that parses is written and parsed again to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFramerParser(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let piece = Int(bytes[0] % 64) + 1
    var framer = JSONTextFramer(maxTextBytes: 64 * 1024, maxDepth: 64)
    var offset = 1
    func drain(_ framer: inout JSONTextFramer) {
        while let event = framer.next() { check(event) }
    }
    while offset < count {
        let end = min(count, offset + piece)
        framer.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
        drain(&framer)
        offset = end
    }
    if let last = framer.finish() { check(last) }
    return 0
}

private func check(_ event: FramingEvent) {
    guard case .text(let text) = event else { return }
    guard let value = try? JSONParser.parse(text, maxDepth: 64) else { return }
    let written = Array(value.compactText.utf8)
    guard let again = try? JSONParser.parse(written, maxDepth: 64) else {
        fatalError("Herald wrote a text its parser refuses: \(value.compactText)")
    }
    guard again == value else {
        fatalError("A value written and parsed again changed: \(value.compactText)")
    }
}
