import HeraldProtocol

/// The framer and the parser together, as a connection's `JSONTextDecoder` uses them: the
/// framer over held bytes, its one-pass parse of whole texts and its bracket scan of texts
/// in pieces. The input is one connection's byte stream, appended whole and again in pieces
/// (their size taken from its first byte): both ways must frame the same texts, and a text
/// the framer parsed on the way must be the value its bytes parse to (`HeldJSONTexts`
/// checks). Every framed text is parsed both ways, to a tape and to a tree, which must agree
/// on its value or on its error, and a value that parses is written and parsed again to the
/// same value.
///
/// The size limit is small, so that the fuzzer reaches `.tooLarge`; the depth limit is the
/// server's.
private let maxTextBytes = 2048
private let maxDepth = 64

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFramerParser(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let piece = Int(bytes[0] % 64) + 1
    let whole = frame(bytes, piece: bytes.count)
    let pieces = frame(bytes, piece: piece)
    guard whole == pieces else {
        fatalError("Pieces of \(piece) bytes frame \(pieces); the whole input frames \(whole).")
    }
    for case .text(let text) in whole {
        check(text)
    }
    return 0
}

private func frame(_ bytes: UnsafeRawBufferPointer, piece: Int) -> [HeldJSONTexts.Framed] {
    var framer = HeldJSONTexts(maxTextBytes: maxTextBytes, maxDepth: maxDepth)
    var events: [HeldJSONTexts.Framed] = []
    var offset = 0
    repeat {
        let end = min(bytes.count, offset + piece)
        framer.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
        while let event = framer.next() { events.append(event) }
        offset = end
    } while offset < bytes.count
    while let event = framer.finish() { events.append(event) }
    return events
}

private func check(_ text: [UInt8]) {
    let tape = Result { () throws(JSONParseError) in try JSONTape.parse(text, maxDepth: maxDepth) }
    let tree = Result { () throws(JSONParseError) in try JSONParser.parse(text, maxDepth: maxDepth) }
    switch (tape, tree) {
    case (.success(let tape), .success(let value)):
        guard tape.root.value == value else { fatalError("The tape of \(value.compactText) reads \(tape).") }
    case (.failure(let tapeError), .failure(let treeError)):
        guard tapeError == treeError else { fatalError("The tape refuses with \(tapeError), the parser with \(treeError).") }
    default:
        fatalError("The tape and the parser disagree on whether \(text) is JSON.")
    }
    guard let value = try? tree.get() else { return }
    let written = Array(value.compactText.utf8)
    guard let again = try? JSONParser.parse(written, maxDepth: maxDepth) else {
        fatalError("Herald wrote a text its parser refuses: \(value.compactText)")
    }
    guard again == value else {
        fatalError("A value written and parsed again changed: \(value.compactText)")
    }
}
