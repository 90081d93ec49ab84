#ifndef HERALD_CSYSTEMD_SHIM_H
#define HERALD_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <malloc.h>

/// Names the calling thread (at most 15 bytes are kept), as `ps -T` and `top -H` show it.
/// prctl rather than pthread_setname_np, which Glibc hides behind _GNU_SOURCE.
static inline void herald_set_thread_name(const char *name) {
    (void)prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/// Bytes malloc has handed out and not had back (glibc's mallinfo2, which Swift's Glibc
/// module does not declare): what the benchmarks weigh a structure by.
static inline size_t herald_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#endif
