import Foundation

/// A small C library compiled for a test, in a folder of its own, for a daemon's
/// `LD_PRELOAD`: how ``SteppedWallClock`` and ``HeldStateLock`` reach into a heraldd
/// built as shipped.
package struct PreloadLibrary {
    /// The C compiler that builds it, if the machine has one.
    package static var compiler: String? {
        ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The library's folder, for the files the test and the library share; the owner removes it.
    package let folder: URL
    package let path: String

    /// Compiles `source` as `name.so` in a new temporary folder.
    package init(name: String, source: String) throws {
        guard let compiler = Self.compiler else { throw ChildProcess.Failure(description: "no C compiler") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("\(name).so").path
        let sourcePath = folder.appendingPathComponent("\(name).c").path
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        let child = try ChildProcess(compiler, ["-shared", "-fPIC", "-O1", "-o", path, sourcePath, "-ldl", "-lpthread"])
        guard child.waitForExit(timeout: 120) == 0, FileManager.default.fileExists(atPath: path) else {
            throw ChildProcess.Failure(description: "\(compiler) could not build \(name).so")
        }
    }
}
