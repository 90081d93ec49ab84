import HeraldCore
import HeraldProtocol

/// `rpc.discover` answers with the OpenRPC document it was given, whose size bounds a batch.
extension DiscoverMethod: ServedMethod {
    static func resultSize(_ services: MethodServices) -> Int? {
        services.environment.openRPCDocument.compactText.utf8.count
    }

    static func handle(_ params: NoParams, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<JSONValue> {
        MethodOutcome(result: services.environment.openRPCDocument, audit: AuditRecord())
    }
}
