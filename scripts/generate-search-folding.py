#!/usr/bin/env python3
"""Writes Sources/HeraldCore/Rules/SearchFolding+Table.swift from the Unicode Character Database.

The search folds case, diacritics and width without ICU (docs/operations.md, "Programs'
size and start-up"). Its tables come from Debian's `unicode-data` package (`make deps`
installs it; UNICODE_DATA=folder reads another copy):

  - each scalar's folding on its own: a fullwidth or halfwidth form (U+FF00–U+FFEF) becomes
    its ordinary form; a canonically decomposable letter of the Latin, Greek or Cyrillic
    blocks (its decomposition starting below U+0510) becomes its base letter; then full
    case folding (CaseFolding.txt, C and F), without the combining marks it brings for a
    letter below U+0510;
  - the marks that join the letter before them (Grapheme_Extend, and the emoji modifiers),
    which the folding drops after a Latin, Greek or Cyrillic letter;
  - the canonical decomposition of a kept mark that has one.

`swift test --filter SearchFoldingTests` checks the result against Foundation's
`folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive])` for every
code point, alone and after a letter.
"""

import os
import sys

FOLDER = os.environ.get("UNICODE_DATA", "/usr/share/unicode")
OUTPUT = os.path.join(os.path.dirname(__file__), "..", "Sources", "HeraldCore", "Rules", "SearchFolding+Table.swift")
LATIN_GREEK_CYRILLIC_END = 0x0510


def read(name):
    path = os.path.join(FOLDER, name)
    if not os.path.exists(path):
        sys.exit(f"{path} is missing: install Debian's unicode-data (make deps), or set UNICODE_DATA")
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


def code_points(text):
    if ".." in text:
        first, last = text.split("..")
        return range(int(first, 16), int(last, 16) + 1)
    return [int(text, 16)]


def unicode_version():
    with open(os.path.join(FOLDER, "ReadMe.txt"), encoding="utf-8") as file:
        for line in file:
            if "Version" in line and "of the Unicode Standard" in line:
                return line.split("Version", 1)[1].split("of")[0].strip()
    sys.exit("cannot tell the Unicode version from ReadMe.txt")


canonical = {}
compatibility = {}
for fields in read("UnicodeData.txt"):
    if not fields[5]:
        continue
    parts = fields[5].split()
    if parts[0].startswith("<"):
        compatibility[int(fields[0], 16)] = (parts[0], [int(p, 16) for p in parts[1:]])
    else:
        canonical[int(fields[0], 16)] = [int(p, 16) for p in parts]


def decompose(scalar):
    if scalar not in canonical:
        return [scalar]
    return [part for piece in canonical[scalar] for part in decompose(piece)]


def decompose_compatibly(scalar):
    parts = canonical.get(scalar) or compatibility.get(scalar, (None, None))[1]
    if not parts:
        return [scalar]
    return [part for piece in parts for part in decompose_compatibly(piece)]


age = {}
for fields in read("DerivedAge.txt"):
    for scalar in code_points(fields[0]):
        age[scalar] = tuple(int(part) for part in fields[1].split("."))

lowercase = {}
for fields in read("UnicodeData.txt"):
    if fields[13]:
        lowercase[int(fields[0], 16)] = [int(fields[13], 16)]
for fields in read("SpecialCasing.txt"):
    if len(fields) == 5 or not fields[4]:  # no condition: every language, every context
        lowercase[int(fields[0], 16)] = [int(p, 16) for p in fields[1].split()]

# Foundation folds with the full case folding of Unicode 7 and, for letters cased since,
# with their lowercase: so Cherokee's capitals fold to its small letters (CaseFolding.txt
# folds the other way since Unicode 8), and the Cyrillic letter variants of Unicode 9
# (U+1C80-U+1C88) stay as they are.
FOUNDATION_CASE_FOLDING_AGE = (8, 0)
case_folding = dict(lowercase)
for fields in read("CaseFolding.txt"):
    scalar = int(fields[0], 16)
    if fields[1] in ("C", "F") and age.get(scalar, (99, 0)) < FOUNDATION_CASE_FOLDING_AGE:
        case_folding[scalar] = [int(p, 16) for p in fields[2].split()]

joining = set()
for fields in read("DerivedCoreProperties.txt"):
    if fields[1] == "Grapheme_Extend":
        joining.update(code_points(fields[0]))
for fields in read("emoji/emoji-data.txt"):
    if fields[1] == "Emoji_Modifier":
        joining.update(code_points(fields[0]))


def fold(scalar):
    if 0xFF00 <= scalar <= 0xFFEF:
        # Only a form that decomposes to one scalar: U+FFE3 FULLWIDTH MACRON stays.
        parts = decompose_compatibly(scalar)
        if len(parts) == 1:
            scalar = parts[0]
    decomposed = decompose(scalar)
    if decomposed[0] < LATIN_GREEK_CYRILLIC_END:
        scalar = decomposed[0]
    folded = case_folding.get(scalar, [scalar])
    if scalar < LATIN_GREEK_CYRILLIC_END:
        folded = [part for part in folded if part not in joining] or [scalar]
    return folded


foldings = {}
for scalar in range(0x80, 0x110000):
    if 0xD800 <= scalar <= 0xDFFF:
        continue
    folded = fold(scalar)
    if folded != [scalar]:
        foldings[scalar] = folded

joining_ranges = []
for scalar in sorted(joining):
    if joining_ranges and joining_ranges[-1][1] == scalar - 1:
        joining_ranges[-1][1] = scalar
    else:
        joining_ranges.append([scalar, scalar])

kept_mark_decompositions = {
    scalar: decompose(scalar) for scalar in sorted(joining) if scalar >= LATIN_GREEK_CYRILLIC_END and scalar in canonical
}


def rows(values, per_line=8):
    text = [", ".join(values[i : i + per_line]) for i in range(0, len(values), per_line)]
    return ",\n".join("        " + line for line in text)


def hex32(value):
    return f"0x{value:04X}"


single = [(s, f[0]) for s, f in sorted(foldings.items()) if len(f) == 1]
multiple = [(s, f) for s, f in sorted(foldings.items()) if len(f) > 1]
version = unicode_version()
major, minor = version.split(".")[:2]

lines = [
    f"// Generated by scripts/generate-search-folding.py from the Unicode Character Database {version}",
    "// (Debian's unicode-data): do not edit. SearchFoldingTests checks it against Foundation's folding.",
    "",
    "extension SearchFolding {",
    "    /// The Unicode version the tables were made from.",
    f"    static let unicodeVersion = (major: {major}, minor: {minor})",
    "",
    f"    /// Scalars beyond ASCII that fold to one other scalar, sorted ({len(single)}).",
    "    static let singleFoldedScalars: [UInt32] = [",
    rows([hex32(s) for s, _ in single]),
    "    ]",
    "",
    "    /// What each of `singleFoldedScalars` folds to.",
    "    static let singleFoldings: [UInt32] = [",
    rows([hex32(f) for _, f in single]),
    "    ]",
    "",
    f"    /// Scalars that fold to several, sorted ({len(multiple)}): ß to ss, ﬃ to ffi.",
    "    static let multipleFoldedScalars: [UInt32] = [",
    rows([hex32(s) for s, _ in multiple]),
    "    ]",
    "",
    "    /// What each of `multipleFoldedScalars` folds to, three scalars each, 0 where shorter.",
    "    static let multipleFoldings: [UInt32] = [",
    rows([hex32(f[i] if i < len(f) else 0) for _, f in multiple for i in range(3)], per_line=9),
    "    ]",
    "",
    "    /// The marks that join the scalar before them (Grapheme_Extend and the emoji",
    f"    /// modifiers), as sorted first-last pairs ({len(joining_ranges)} ranges).",
    "    static let joiningMarkRanges: [UInt32] = [",
    rows([hex32(v) for r in joining_ranges for v in r]),
    "    ]",
    "",
    "    /// The canonical decompositions of the joining marks a folding keeps, at most four",
    "    /// scalars each (the mark first, then its parts, 0 where shorter).",
    "    static let keptMarkDecompositions: [UInt32] = [",
    rows([hex32(v) for s, d in kept_mark_decompositions.items() for v in [s] + d + [0] * (4 - len(d))], per_line=10),
    "    ]",
    "}",
    "",
]
assert all(len(f) <= 3 for _, f in multiple)
assert all(len(d) <= 4 for d in kept_mark_decompositions.values())
with open(OUTPUT, "w", encoding="utf-8") as file:
    file.write("\n".join(lines))
print(f"{os.path.normpath(OUTPUT)}: {len(single)} single, {len(multiple)} multiple foldings, "
      f"{len(joining_ranges)} mark ranges, {len(kept_mark_decompositions)} mark decompositions (Unicode {version})")
