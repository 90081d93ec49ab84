/* The entry of `herald`, heraldd, heraldctl and herald-notify linked as one program
 * (docs/operations.md, "One program, three names"): the name it was started as chooses
 * which program's main runs. Each `*_main` is the entry SwiftPM gives an executable
 * target's module. */
#include <stdio.h>
#include <string.h>

int heraldd_main(int argc, char **argv);
int heraldctl_main(int argc, char **argv);
int herald_notify_main(int argc, char **argv);

int main(int argc, char **argv) {
    const char *path = argc > 0 ? argv[0] : "";
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (strcmp(name, "heraldd") == 0) return heraldd_main(argc, argv);
    if (strcmp(name, "heraldctl") == 0) return heraldctl_main(argc, argv);
    if (strcmp(name, "herald-notify") == 0) return herald_notify_main(argc, argv);
    fprintf(stderr, "herald: started as \"%s\"; run it as heraldd, heraldctl or herald-notify "
                    "(the links make install makes to it)\n", name);
    return 64; /* EX_USAGE */
}
