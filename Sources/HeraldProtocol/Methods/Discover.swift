/// `rpc.discover`: the OpenRPC document describing every method — `Protocol/openrpc.json`.
package enum DiscoverMethod: HeraldMethod {
    package static let name = "rpc.discover"
    package static let needsStore = false
    package static let access: MethodAccess = .anyone
    package static let changesState = false
    package static let journalMessageIDs = JournalMessageIDs(ok: "15a4baa5bd9943679109636d16dbacee", error: "249b0218e0a44d4daa1f90c4badf37cf")
    package typealias Params = NoParams
    /// The OpenRPC document, as it stands in `Protocol/openrpc.json`.
    package typealias Result = JSONValue
}
