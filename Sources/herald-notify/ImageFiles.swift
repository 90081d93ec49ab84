import Foundation
import HeraldDesktop

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The files inline images are written to, for servers that only take a path: mode
/// 0600 in a 0700 folder under `$XDG_RUNTIME_DIR`, each removed when its bubble closes
/// (and all of them when herald-notify stops).
final class ImageFiles {
    let folder: String?
    private var counter = 0

    init(environment: [String: String]) {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            folder = "\(runtime)/herald-notify"
        } else {
            folder = nil
            Log.info("XDG_RUNTIME_DIR is not set: inline images are not shown")
        }
        if let folder {
            mkdir(folder, 0o700)
            removeAll()
        }
    }

    /// The path `image` can be shown from: a file URL's own path, or a new file holding inline data.
    func path(for image: ImageSource) -> (path: String, owned: Bool)? {
        switch image {
        case .file(let path):
            return (path, false)
        case .inline(let data, _):
            guard let folder else { return nil }
            counter += 1
            let path = "\(folder)/\(getpid())-\(counter).\(image.fileExtension)"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard fd >= 0 else {
                Log.info("cannot write an image file in \(folder): \(String(cString: strerror(errno)))")
                return nil
            }
            defer { close(fd) }
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == data.count else {
                unlink(path)
                return nil
            }
            return (path, true)
        }
    }

    func remove(_ path: String) {
        unlink(path)
    }

    /// Removes every file in the folder: those of a previous run, or all at exit.
    func removeAll() {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names { unlink("\(folder)/\(name)") }
    }
}
