import HeraldCore
import HeraldProtocol

extension ResponseSubscriptions {
    /// Sends `response` to the connections that listened for it. One that none of them took
    /// (each closed before the write) goes to whoever subscribed since, or waits for the
    /// app's next `subscribe-responses`, decided under the state's lock as a subscription is;
    /// after a few tries it waits.
    func handOff(
        _ response: NotificationResponse, uid: UInt32, to listeners: [ConnectionIdentity], state: SharedState, attempt: Int = 1
    ) {
        deliver(response, to: listeners) {
            let listening = state.withLock { state in
                let listening = attempt < 3 ? self.listeners(uid: uid, app: response.app) : []
                if listening.isEmpty { state.keepUndeliveredResponse(response, uid: uid) }
                return listening
            }
            if !listening.isEmpty {
                self.handOff(response, uid: uid, to: listening, state: state, attempt: attempt + 1)
            }
        }
    }
}
