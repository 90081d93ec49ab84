/*
 * journald's ceiling on this machine: one thread sending, as fast as it can, entries with
 * the fields Herald writes for a successful `donate`, through sd_journal_send.
 *
 *   cc -O2 -o journal-ceiling scripts/journal-ceiling.c $(pkg-config --cflags --libs libsystemd)
 *   journal-ceiling --seconds 3        (or --entries 100000)
 *
 * Prints one JSON line: {"kind":"ceiling","entries":N,"seconds":S,"entriesPerSecond":R}.
 * scripts/bench.sh compiles and runs it in the same run as Herald, so Herald's journal-on
 * throughput can be read as a share of what journald accepts from a plain C client.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <systemd/sd-journal.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void) {
    struct timespec spec;
    clock_gettime(CLOCK_MONOTONIC, &spec);
    return (double)spec.tv_sec + (double)spec.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    double seconds = 3;
    long long limit = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seconds") == 0) {
            seconds = atof(argv[i + 1]);
        } else if (strcmp(argv[i], "--entries") == 0) {
            limit = atoll(argv[i + 1]);
        } else {
            fprintf(stderr, "usage: %s [--seconds S | --entries N]\n", argv[0]);
            return 2;
        }
    }
    unsigned uid = (unsigned)getuid();
    unsigned pid = (unsigned)getpid();
    long long sent = 0;
    long long failed = 0;
    double start = now_seconds();
    double end = start;
    for (;;) {
        if (limit >= 0 ? sent >= limit : (sent & 63) == 0 && (end = now_seconds()) - start >= seconds) break;
        int status = sd_journal_send(
            "MESSAGE=donate ok app=org.example.chat interaction=c0-%lld incoming sendMessage", sent,
            "PRIORITY=6",
            "SYSLOG_IDENTIFIER=heraldd",
            "MESSAGE_ID=b7952d7964fd42f5b32c641aec601e0d",
            "HERALD_METHOD=donate",
            "HERALD_REQUEST_ID=%lld", 1000000000LL + sent,
            "HERALD_OUTCOME=ok",
            "HERALD_APP=org.example.chat",
            "HERALD_PEER_UID=%u", uid,
            "HERALD_PEER_PID=%u", pid,
            "HERALD_DURATION_USEC=%d", 12,
            "HERALD_INTERACTION_ID=c0-%lld", sent,
            "HERALD_CONVERSATION_ID=c-ann",
            "HERALD_DIRECTION=incoming",
            "HERALD_INTENT=sendMessage",
            NULL);
        if (status < 0) failed++;
        sent++;
    }
    end = now_seconds();
    double elapsed = end - start;
    printf("{\"kind\":\"ceiling\",\"entries\":%lld,\"failed\":%lld,\"seconds\":%.3f,\"entriesPerSecond\":%.1f}\n",
           sent, failed, elapsed, (double)(sent - failed) / elapsed);
    return failed > 0 ? 1 : 0;
}
