import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A wedged heraldd, for a test: a small `LD_PRELOAD` library, compiled here, finds the
/// state's lock (the one glibc adaptive mutex heraldd makes, `AdaptiveLockedValue`) and,
/// while ``hold()`` is in force, keeps the next thread that takes it inside its work under
/// the lock, as a request that ran for minutes would (issue 49: 225 s). The binary is the
/// one shipped; nothing in heraldd knows of the test.
package final class HeldStateLock {
    private let folder: URL
    private let holdPath: String
    private let libraryPath: String

    package init() throws {
        let library = try PreloadLibrary(name: "held-lock", source: Self.source)
        folder = library.folder
        libraryPath = library.path
        holdPath = folder.appendingPathComponent("hold").path
    }

    deinit {
        release()
        try? FileManager.default.removeItem(at: folder)
    }

    /// What the daemon's environment needs for its lock to be held on demand.
    package var environment: [String: String] {
        ["LD_PRELOAD": libraryPath, "HERALD_TEST_HOLD_FILE": holdPath]
    }

    /// From now on, the next holder of the state's lock stays in it until ``release()``.
    package func hold() {
        _ = FileManager.default.createFile(atPath: holdPath, contents: nil)
    }

    /// Lets the lock go.
    package func release() {
        unlink(holdPath)
    }

    private static let source = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <pthread.h>
        #include <stdatomic.h>
        #include <stdlib.h>
        #include <time.h>
        #include <unistd.h>

        extern void *__libc_malloc(size_t);

        static int (*real_init)(pthread_mutex_t *, const pthread_mutexattr_t *);
        static int (*real_lock)(pthread_mutex_t *);
        static int (*real_trylock)(pthread_mutex_t *);
        static int (*real_unlock)(pthread_mutex_t *);
        static int (*real_clock_gettime)(clockid_t, struct timespec *);
        static _Atomic(pthread_mutex_t *) state_lock;
        /* This thread took the state's lock while a hold was asked for (1); it has read the
           monotonic clock since, heraldd's note of when the hold began (2). */
        static __thread int stage __attribute__((tls_model("initial-exec")));

        /* Resolved at first use: the Swift runtime's own initializers lock and unlock
           before this library's constructors would run. */
        static void resolve(void) {
            if (!real_init) real_init = dlsym(RTLD_NEXT, "pthread_mutex_init");
            if (!real_lock) real_lock = dlsym(RTLD_NEXT, "pthread_mutex_lock");
            if (!real_trylock) real_trylock = dlsym(RTLD_NEXT, "pthread_mutex_trylock");
            if (!real_unlock) real_unlock = dlsym(RTLD_NEXT, "pthread_mutex_unlock");
            if (!real_clock_gettime) real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
        }

        static int asked(void) {
            const char *path = getenv("HERALD_TEST_HOLD_FILE");
            return path && access(path, F_OK) == 0;
        }

        static void hold(void) {
            stage = 0;
            while (asked()) usleep(10000);
        }

        /* The first adaptive mutex is the state's: heraldd makes no other. */
        int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attributes) {
            resolve();
            int type = 0;
            if (attributes && pthread_mutexattr_gettype(attributes, &type) == 0 && type == PTHREAD_MUTEX_ADAPTIVE_NP) {
                pthread_mutex_t *none = NULL;
                atomic_compare_exchange_strong(&state_lock, &none, mutex);
            }
            return real_init(mutex, attributes);
        }

        static int taken(pthread_mutex_t *mutex, int result) {
            if (result == 0 && mutex == atomic_load(&state_lock) && asked()) stage = 1;
            return result;
        }

        int pthread_mutex_lock(pthread_mutex_t *mutex) {
            resolve();
            return taken(mutex, real_lock(mutex));
        }

        int pthread_mutex_trylock(pthread_mutex_t *mutex) {
            resolve();
            return taken(mutex, real_trylock(mutex));
        }

        int clock_gettime(clockid_t clock, struct timespec *ts) {
            resolve();
            if (stage == 1 && clock == CLOCK_MONOTONIC) stage = 2;
            return real_clock_gettime(clock, ts);
        }

        /* Held inside a request's work: at its first allocation once heraldd has noted when
           the hold began. A hold that allocates nothing is let go, and the next one tried. */
        void *malloc(size_t size) {
            if (stage == 2) hold();
            return __libc_malloc(size);
        }

        int pthread_mutex_unlock(pthread_mutex_t *mutex) {
            resolve();
            if (mutex == atomic_load(&state_lock)) stage = 0;
            return real_unlock(mutex);
        }
        """#
}
