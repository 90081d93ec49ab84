import HeraldCore
import HeraldProtocol
import NIOConcurrencyHelpers

/// Herald's state, shared by every connection behind one lock.
///
/// Handlers hold the lock only for the rule itself: params are decoded before and
/// results encoded after, outside it.
public final class SharedState: Sendable {
    private let box: NIOLockedValueBox<HeraldState>

    public init(_ state: HeraldState) {
        self.box = NIOLockedValueBox(state)
    }

    /// Runs `body` with the state locked; its typed error passes through.
    public func withLock<Value: Sendable, Failure: Error>(
        _ body: (inout HeraldState) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        let result: Result<Value, Failure> = box.withLockedValue { state in
            do throws(Failure) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// A copy of the state: cheap, since the state is made of copy-on-write values.
    public func copy() -> HeraldState {
        box.withLockedValue { $0 }
    }
}
