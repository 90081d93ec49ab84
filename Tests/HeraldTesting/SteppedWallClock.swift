import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A wall clock a test steps, for a daemon started with ``environment``: a small
/// `LD_PRELOAD` library, compiled here, adds the offset in a file to every read of
/// `CLOCK_REALTIME` (`clock_gettime`, `gettimeofday`, `time`), so that the test can step
/// a running heraldd's clock back as NTP or a person setting the time would. The
/// monotonic clocks are left alone, as a real step leaves them.
package final class SteppedWallClock {
    /// The C compiler that builds the library, if the machine has one.
    package static var compiler: String? { PreloadLibrary.compiler }

    private let folder: URL
    private let offsetPath: String
    private let libraryPath: String
    /// The offset from the real wall clock, in seconds.
    package private(set) var offset: Double = 0

    package init() throws {
        let library = try PreloadLibrary(name: "stepped-clock", source: Self.source)
        folder = library.folder
        libraryPath = library.path
        offsetPath = folder.appendingPathComponent("offset").path
        try write(offset: 0)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// What the daemon's environment needs for its clock to follow this one.
    package var environment: [String: String] {
        ["LD_PRELOAD": libraryPath, "HERALD_TEST_CLOCK_OFFSET_FILE": offsetPath]
    }

    /// Steps the clock by `seconds` (negative: back); the daemon's next read sees it.
    package func step(by seconds: Double) throws {
        offset += seconds
        try write(offset: offset)
    }

    private func write(offset: Double) throws {
        let nanoseconds = Int64((offset * 1e9).rounded())
        let temporary = offsetPath + ".new"
        try "\(nanoseconds)\n".write(toFile: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary, offsetPath) == 0 else { throw ChildProcess.Failure(description: "rename: \(errno)") }
    }

    private static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <stdlib.h>
        #include <sys/time.h>
        #include <time.h>
        #include <unistd.h>

        /* The offset in nanoseconds, read from the file at every call so that steps show at once. */
        static long long offset_ns(void) {
            const char *path = getenv("HERALD_TEST_CLOCK_OFFSET_FILE");
            if (!path) return 0;
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0) return 0;
            char text[64];
            ssize_t n = read(fd, text, sizeof text - 1);
            close(fd);
            if (n <= 0) return 0;
            text[n] = 0;
            return strtoll(text, NULL, 10);
        }

        static int (*real_clock_gettime)(clockid_t, struct timespec *);

        int clock_gettime(clockid_t clock, struct timespec *ts) {
            if (!real_clock_gettime) real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
            int result = real_clock_gettime(clock, ts);
            if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
                long long ns = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + offset_ns();
                ts->tv_sec = ns / 1000000000LL;
                ts->tv_nsec = ns % 1000000000LL;
            }
            return result;
        }

        int gettimeofday(struct timeval *tv, void *tz) {
            struct timespec ts;
            int result = clock_gettime(CLOCK_REALTIME, &ts);
            if (result == 0 && tv) {
                tv->tv_sec = ts.tv_sec;
                tv->tv_usec = ts.tv_nsec / 1000;
            }
            (void)tz;
            return result;
        }

        time_t time(time_t *out) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            if (out) *out = ts.tv_sec;
            return ts.tv_sec;
        }
        """#
}
