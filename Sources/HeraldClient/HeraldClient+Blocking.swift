import Dispatch
import FoundationEssentials
import HeraldProtocol
import NIOConcurrencyHelpers

extension HeraldClient {
    /// Connects and waits on the calling thread, for heraldctl's commands; never on an event loop.
    package static func connectWaiting(_ configuration: Configuration) throws(HeraldError) -> HeraldClient {
        try waiting { () async throws(HeraldError) in try await connect(configuration) }
    }

    /// Calls `method` with params as heraldctl builds them, waiting on the calling thread.
    package func callWaiting(_ method: String, params: JSONValue?) throws(HeraldError) -> JSONValue {
        var written: [UInt8] = []
        (params ?? .object(JSONObject())).write(to: &written)
        let text = written
        return try Self.waiting { () async throws(HeraldError) in try await self.call(method, paramsText: text) }
    }

    /// The value of `body`, waiting for it on the calling thread.
    static func waiting<Value: Sendable>(_ body: @escaping @Sendable () async throws(HeraldError) -> Value) throws(HeraldError) -> Value {
        let outcome = NIOLockedValueBox<Result<Value, HeraldError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<Value, HeraldError>
            do throws(HeraldError) {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            outcome.withLockedValue { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLockedValue { $0! }.get()
    }
}
