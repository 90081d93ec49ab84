import Testing

/// Every suite of this target.
///
/// No test here changes process-wide state: the ones that need fds 3…, `LISTEN_*`,
/// `NOTIFY_SOCKET` or `WATCHDOG_*` run in a child process (``TestChild``), since in this
/// process fds 3–5 belong to Dispatch and the environment is shared with every other
/// test target's tests running beside them.
@Suite
enum SystemdTests {}
