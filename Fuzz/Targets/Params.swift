import HeraldProtocol

/// Params decoding of every method: the first byte chooses the method, the rest is a JSON
/// text whose value is decoded as that method's params, as the server does after parsing.
/// Every failure must be an `RPCError`; a crash, a hang or a leak is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParams(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let method = HeraldMethods.all[Int(bytes[0]) % HeraldMethods.all.count]
    guard let params = try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: bytes[1...]), maxDepth: 64) else { return 0 }
    decode(method, params)
    return 0
}

private func decode<Method: HeraldMethod>(_ method: Method.Type, _ params: JSONValue) {
    _ = try? Method.decodeParams(params)
}
