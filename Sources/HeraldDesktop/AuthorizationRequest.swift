import HeraldProtocol

/// A Focus authorization request waiting for the person's answer: the params of
/// `authorization-requested`, and an element of `list-authorization-requests`' result.
package typealias AuthorizationRequest = AuthorizationRequested

extension AuthorizationRequested {
    /// The requests of a `list-authorization-requests` result `{requests: [{uid, app, requestedAt}]}`,
    /// read as leniently as the events are.
    package static func waiting(in result: JSONValue) throws(RPCError) -> [AuthorizationRequest] {
        try PresenterEvent.decode(WaitingRequests.self, from: result, root: "/result").requests
    }
}

private struct WaitingRequests: Decodable {
    var requests: [AuthorizationRequest]
}
