import HeraldCore
import HeraldProtocol

/// `snapshot` asks the daemon's snapshot writer for a snapshot now.
extension SnapshotMethod: ServedMethod {
    static func handle(_ params: NoParams, _ context: RequestContext, _ services: MethodServices) throws -> MethodOutcome<SnapshotResult> {
        MethodOutcome(result: try services.environment.takeSnapshot(), audit: AuditRecord())
    }
}
