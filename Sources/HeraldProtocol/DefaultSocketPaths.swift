/// Where heraldd listens by default, and so where its clients look: one list, in order.
///
/// `$RUNTIME_DIRECTORY/herald.sock` (systemd's `RuntimeDirectory=`), else
/// `$XDG_RUNTIME_DIR/herald/herald.sock` (a user's own daemon), else
/// `/run/herald/herald.sock` (the system's). A standalone heraldd listens on the first;
/// heraldctl and other clients take the first that exists, since a user's shell has
/// `$XDG_RUNTIME_DIR` set while the system's daemon listens in `/run`.
package enum DefaultSocketPaths {
    package static func candidates(environment: [String: String]) -> [String] {
        var candidates: [String] = []
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !runtime.isEmpty {
            candidates.append("\(runtime)/herald.sock")
        }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty {
            candidates.append("\(xdg)/herald/herald.sock")
        }
        candidates.append("/run/herald/herald.sock")
        return candidates
    }
}
