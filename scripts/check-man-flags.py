#!/usr/bin/env python3
"""Checks that each man page names every flag and subcommand its program's --help shows.

heraldd(8), heraldctl(1) (every subcommand, and every flag of each), herald-notify(1) and
herald-sync(1) are read as groff source with "\\-" taken as "-". A flag of --help that the page does not
name, or a subcommand it does not name, is reported and the check fails.

Usage: scripts/check-man-flags.py BIN_DIR   (BIN_DIR holds heraldd, heraldctl, herald-notify, herald-sync)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PAGES = {"heraldd": "man/heraldd.8", "heraldctl": "man/heraldctl.1", "herald-notify": "man/herald-notify.1",
         "herald-sync": "man/herald-sync.1"}
# What every ArgumentParser program has; a page need not repeat it.
GENERIC = {"--help", "--generate-completion-script"}
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
# An option line's names: "-h, --help", "--socket <path>", "--time-sensitive/--no-time-sensitive".
OPTION_NAMES = re.compile(r"^(?:-[A-Za-z], )?--[a-z0-9-]+(?:/--[a-z0-9-]+)?")


def help_text(binary, path):
    result = subprocess.run([binary, *path, "--help"], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        sys.exit(f"check-man-flags: {' '.join([os.path.basename(binary), *path])} --help exited {result.returncode}")
    return result.stdout


def flags(text):
    """The flags of the option sections (OPTIONS: and any titled group), not of the prose."""
    section = text.split("USAGE:", 1)[1] if "USAGE:" in text else text
    section = section.split("SUBCOMMANDS:", 1)[0]
    found = set()
    for line in section.splitlines():
        # An option's own line starts with its names, two spaces in.
        # (A wrapped help line is indented further and may begin with another flag.)
        if not re.match(r"^  -", line):
            continue
        names = OPTION_NAMES.match(line[2:])
        if names:
            found.update(FLAG.findall(names.group(0)))
    return found - GENERIC


def subcommands(text):
    if "SUBCOMMANDS:" not in text:
        return []
    names = []
    for line in text.split("SUBCOMMANDS:", 1)[1].splitlines():
        match = re.match(r"^  ([a-z][a-z0-9-]*)(\s|$)", line)
        if match and match.group(1) != "help":
            names.append(match.group(1))
    return names


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    bin_dir = sys.argv[1]
    problems = []
    for program, page in PAGES.items():
        path = os.path.join(ROOT, page)
        if not os.path.exists(path):
            problems.append(f"{page}: missing")
            continue
        source = open(path, encoding="utf-8").read().replace("\\-", "-").replace("\\fB", "").replace("\\fR", "")
        source = source.replace("\\fI", "").replace("\\fP", "")
        # "--[no-]critical" names both --critical and --no-critical.
        source = re.sub(r"--\[no-\]([a-z][a-z0-9-]*)", r"--\1 --no-\1", source)
        named = set(FLAG.findall(source))
        binary = os.path.join(bin_dir, program)
        queue = [[]]
        while queue:
            sub = queue.pop(0)
            text = help_text(binary, sub)
            where = " ".join([program, *sub])
            for flag in sorted(flags(text) - named):
                problems.append(f"{page}: does not name {flag} of `{where}`")
            for child in subcommands(text):
                if not re.search(r"(?<![\w-])" + re.escape(" ".join([*sub, child])) + r"(?![\w-])", source):
                    problems.append(f"{page}: does not name the subcommand `{program} {' '.join([*sub, child])}`")
                queue.append([*sub, child])
    if problems:
        print("\n".join(problems), file=sys.stderr)
        sys.exit(f"check-man-flags: {len(problems)} flags or subcommands missing from the man pages")
    print("check-man-flags: every flag and subcommand of --help is in heraldd(8), heraldctl(1), herald-notify(1) and herald-sync(1)")


if __name__ == "__main__":
    main()
