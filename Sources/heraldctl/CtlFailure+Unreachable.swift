import FoundationEssentials
import HeraldClient
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension CtlFailure {
    /// What a person needs to know when heraldd cannot be reached at `path` (exit status 69).
    static func unreachable(path: String, error: HeraldError) -> CtlFailure {
        switch error.systemErrno {
        case ENOENT, ECONNREFUSED:
            let what = error.systemErrno == ENOENT ? "there is no socket at \(path)" : "nothing answers on \(path)"
            return CtlFailure(.unavailable, [
                "heraldctl: heraldd is not running there: \(what).",
                "  Start it: systemctl start herald.socket (when installed), or `make run` in Herald's source folder",
                "  (which serves on .run/herald.sock: heraldctl --socket .run/herald.sock, or export HERALD_SOCKET).",
                "  Another socket: --socket PATH or $HERALD_SOCKET.",
            ])
        case EACCES, EPERM:
            return CtlFailure(.unavailable, permissionDenied(path: path))
        default:
            return CtlFailure(.unavailable, ["heraldctl: \(error.message)."])
        }
    }

    /// Names the socket's group (or its folder's, when the folder is what refuses) and how to join it.
    ///
    /// Joining root's group is never the advice: a socket or folder of group root means the
    /// installation is not as herald.socket makes it (root:herald, 0660, in a 0755 folder).
    private static func permissionDenied(path: String) -> [String] {
        let folder = PrivateFile.folder(of: path)
        var status = stat()
        let what: String
        if stat(path, &status) == 0 {
            what = "the socket \(path)"
        } else if stat(folder, &status) == 0 {
            what = "its folder \(folder)"
        } else {
            return [
                "heraldctl: permission denied on \(path), and its folder \(folder) cannot be looked into.",
                "  herald.socket makes the folder 0755 and the socket root:herald 0660; ask an administrator to check: ls -ld \(folder) \(path)",
            ]
        }
        let group = getgrgid(status.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(status.st_gid)"
        let mode = String(status.st_mode & 0o777, radix: 8)
        guard status.st_gid != 0 else {
            return [
                "heraldctl: permission denied on \(path): \(what) belongs to group root (mode \(mode)).",
                "  herald.socket makes the socket root:herald 0660; ask an administrator to check: ls -ld \(folder) \(path)",
            ]
        }
        return [
            "heraldctl: permission denied on \(path): \(what) belongs to group \(group) (mode \(mode)), and you are not in it.",
            "  Join the group: sudo usermod -aG \(group) \"$USER\", then log in again (or run: newgrp \(group)).",
        ]
    }
}
