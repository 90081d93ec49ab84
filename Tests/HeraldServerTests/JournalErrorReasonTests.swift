import HeraldProtocol
import Testing

@testable import HeraldServer

@Suite struct JournalErrorReasonTests {
    private let errors = JournalErrorReason(schema: OpenRPCDocument.value)

    @Test func aReasonIsTheCodeThePointerAndTheLimit() {
        #expect(
            errors.reason(code: .invalidParams, pointer: "/interaction/direction", limit: nil)
                == "Invalid params at /interaction/direction"
        )
        #expect(errors.reason(code: .invalidParams, pointer: "/app", limit: 256) == "Invalid params at /app, limit 256")
        #expect(errors.reason(code: .parseError, pointer: nil, limit: nil) == "Parse error")
        #expect(errors.reason(code: .interactionNotFound, pointer: "", limit: nil) == "Interaction not found")
    }

    @Test func aPointerKeepsTheSchemasNamesAndPositionsOnly() {
        #expect(errors.schemaPointer("/interaction/intent/recipients/1/displayName") == "/interaction/intent/recipients/1/displayName")
        #expect(errors.schemaPointer("/content/userInfo/my secret plan") == "/content/userInfo/*")
        #expect(errors.schemaPointer("/payload/aps/alert/title") == "/payload/aps/alert/title")
        #expect(errors.schemaPointer("/secret~1plan/app") == "/*/app")
        #expect(errors.schemaPointer("/12345678901") == "/*")
        #expect(errors.schemaPointer("/") == "/*")
        #expect(errors.schemaPointer("") == "")
        #expect(errors.schemaPointer("not a pointer") == "*")
    }

    @Test func namesComeFromParamsPropertiesAndRequired() {
        let schema: JSONValue = [
            "methods": [["params": [["name": "first"]]]],
            "components": ["schemas": ["Thing": ["properties": ["second": [:]], "required": ["third"]]]],
        ]
        let errors = JournalErrorReason(schema: schema)
        #expect(errors.schemaPointer("/first/second/third/fourth") == "/first/second/third/*")
        #expect(errors.schemaPointer("/params/id/method/jsonrpc") == "/params/id/method/jsonrpc")
    }
}
