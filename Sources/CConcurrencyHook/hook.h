#ifndef HERALD_CONCURRENCY_HOOK_H
#define HERALD_CONCURRENCY_HOOK_H

/// Where Swift's concurrency runtime reads the hook that takes over its global executor
/// (`swift_task_enqueueGlobal_hook`, from the runtime's own headers). SwiftNIO finds it with
/// `dlsym`, which a program linked with the Swift runtime statically cannot answer: the
/// runtime's `-static-stdlib` link keeps every symbol of its archives out of the program's
/// dynamic symbols (`--exclude-libs ALL`). A reference from C reaches it either way.
extern void *swift_task_enqueueGlobal_hook;

static inline void **herald_enqueue_global_hook(void) {
    return &swift_task_enqueueGlobal_hook;
}

#endif
