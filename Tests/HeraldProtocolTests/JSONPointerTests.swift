import Testing

@testable import HeraldProtocol

@Suite("JSONPointer")
struct JSONPointerTests {
    @Test("the root is the empty string")
    func root() {
        #expect(JSONPointer().description == "")
        #expect(JSONPointer().isRoot)
    }

    @Test("appends keys and indexes")
    func appending() {
        let pointer = JSONPointer().appending("interaction").appending("recipients").appending(1).appending("handle")
        #expect(pointer.description == "/interaction/recipients/1/handle")
        #expect(pointer.tokens == ["interaction", "recipients", "1", "handle"])
    }

    @Test("escapes '~' as ~0 and '/' as ~1")
    func escaping() {
        #expect(JSONPointer().appending("a/b").appending("m~n").appending("~1").description == "/a~1b/m~0n/~01")
        #expect(JSONPointer().appending("").description == "/")
    }

    @Test("is built from a coding path")
    func codingPath() {
        let path: [any CodingKey] = [JSONMemberKey("people"), JSONIndexKey(2), JSONMemberKey("a/b")]
        #expect(JSONPointer(codingPath: path).description == "/people/2/a~1b")
    }
}
