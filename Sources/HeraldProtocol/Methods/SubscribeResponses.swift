/// `subscribe-responses`: makes this connection hear its (uid, app)'s responses, as
/// `notification-response` notifications, one a line: first those that waited while no
/// connection of the app was subscribed, oldest first, then each as it is made — the way
/// the system launches an app to hand it a response.
package enum SubscribeResponsesMethod: HeraldMethod {
    package static let name = "subscribe-responses"
    package static let access: MethodAccess = .app
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "173c2ebf9e3c4b5186875ad3accf5a16", error: "7beb4158c0074e928720ba8c629c96ee")
    package typealias Params = SubscribeResponsesParams
    package typealias Result = SubscribeResponsesResult
}

package struct SubscribeResponsesParams: Codable, Sendable, Hashable {
    /// The app whose responses to hear; always the caller's own uid's.
    package var app: String
    /// Watch without taking: hear each response as it is made, and leave the waiting
    /// ones (and every response's hand-off) to the app. False when absent.
    package var observe: Bool

    package init(app: String, observe: Bool = false) {
        self.app = app
        self.observe = observe
    }
}

extension SubscribeResponsesParams: ParamsReadable {
    package init(reading value: ParamsReader) throws(RPCError) {
        self = try value.object { members throws(RPCError) in
            SubscribeResponsesParams(app: try members.required("app"), observe: try members.optional("observe", default: false))
        }
    }
}

package struct SubscribeResponsesResult: Codable, Sendable, Hashable {
    package var app: String
    /// How many waiting responses follow this result, oldest first.
    package var pending: Int
    /// How many waiting responses were dropped (the oldest, past 100 for this app) since
    /// the app last subscribed.
    package var dropped: Int
    /// With `observe`: how many responses wait for the app, left for it; absent otherwise.
    package var waiting: Int?

    package init(app: String, pending: Int, dropped: Int, waiting: Int? = nil) {
        self.app = app
        self.pending = pending
        self.dropped = dropped
        self.waiting = waiting
    }
}
