extension HeraldClient {
    /// heraldd's protocol version, `info.version` of its `rpc.discover` document.
    public func daemonProtocolVersion() async throws(HeraldError) -> String {
        let document = try await discover()
        guard let version = document.info["version"]?.stringValue else {
            throw HeraldError(kind: .unreadable, message: "rpc.discover's document has no info.version")
        }
        return version
    }

    /// Throws ``HeraldError/Kind/incompatibleProtocol`` unless heraldd speaks this client's
    /// major version at `minimum` or later ("1.2": the members and methods added in 1.2).
    public func requireProtocol(_ minimum: String = HeraldClient.protocolVersion) async throws(HeraldError) {
        let version = try await daemonProtocolVersion()
        let daemon = Self.versionNumbers(version)
        let wanted = Self.versionNumbers(minimum)
        let client = Self.versionNumbers(Self.protocolVersion)
        guard daemon.first == client.first, !daemon.lexicographicallyPrecedes(wanted) else {
            throw HeraldError(
                kind: .incompatibleProtocol,
                message: "heraldd speaks protocol \(version); this client needs \(client[0]).x at \(minimum) or later"
            )
        }
    }

    static func versionNumbers(_ version: String) -> [Int] {
        var numbers = version.split(separator: ".").map { Int($0) ?? 0 }
        while numbers.count < 3 { numbers.append(0) }
        return numbers
    }
}
