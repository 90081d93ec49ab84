/// `rpc.discover`: the OpenRPC document describing every method — `Protocol/openrpc.json`.
public enum DiscoverMethod: HeraldMethod {
    public static let name = "rpc.discover"
    public typealias Params = NoParams
    /// The OpenRPC document, as it stands in `Protocol/openrpc.json`.
    public typealias Result = JSONValue
}
