import HeraldProtocol

/// A Focus authorization request waiting for the person's answer: the params of
/// `authorization-requested`, and an element of `list-authorization-requests`' result.
package typealias AuthorizationRequest = AuthorizationRequested

extension AuthorizationRequested {
    /// The requests of a `list-authorization-requests` result `{requests: [{uid, app, requestedAt}]}`,
    /// read as leniently as the events are.
    package static func waiting(in result: JSONValue) throws(RPCError) -> [AuthorizationRequest] {
        try EventReader(result, at: "/result").records("requests", AuthorizationRequest.init(reading:))
    }

    init(reading request: EventReader) throws(RPCError) {
        self.init(uid: try request.integer("uid"), app: try request.string("app"), requestedAt: try request.date("requestedAt"))
    }
}
