#!/usr/bin/env bash
# Builds Herald's libFuzzer targets into .build-fuzz/ (or $FUZZ_BUILD):
#
#   framer-parser   JSONTextFramer and JSONParser together, as JSONTextDecoder uses them
#   params          every method's params decoding
#   snapshot        SnapshotFile.decode, whole files and checksummed payloads
#   change-log      ChangeLogFile.read, whole segments and records behind a good header
#   notify          herald-notify's gateway: an app's Notify as Herald's params
#   sync-focus      herald-sync's readers of the Focus and definition messages a broker hands it
#
# SwiftPM cannot give some targets `-sanitize=fuzzer` and not others, so this compiles the
# modules a target needs with swiftc directly — HeraldProtocol, HeraldCore, and the
# snapshot-file sources of HeraldStorage with its Payload/ folder (the rest of it imports
# Logging and ServiceLifecycle, which the reader does not need) — each instrumented for coverage and
# the address sanitizer, then links each target with libFuzzer's main. The one package
# dependency a fuzzed module imports, swift-collections' DequeModule, is taken from
# SwiftPM's own build of it (`library` below).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${FUZZ_BUILD:-.build-fuzz}
SWIFTC=${SWIFTC:-swiftc}
SWIFT=${SWIFT:-swift}
mkdir -p "$OUT"
# HERALD_FUZZ: the notification sections are cut into runs and chunks of two, not 2,048 and
# 4,096, so that an input of a few notifications reaches their decoding in runs
# (NotificationsSection, format 6 and before) and in chunks (NotificationRecordsSection).
# CCRC32C (SSE4.2's crc32 for HeraldStorage) and CPrefetch (HeraldCore's prefetch hint) are
# headers, found through their module maps.
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -enable-upcoming-feature ExistentialAny -package-name herald
  -D HERALD_FUZZ -I "$OUT" -L "$OUT" -Xcc -fmodule-map-file=Sources/CCRC32C/module.modulemap
  -Xcc -fmodule-map-file=Sources/CPrefetch/module.modulemap)

# module NAME "IMPORTS" SOURCES…: compiled again when a source, or a module it imports, is
# newer than its last build — a module compiled against an older import's layout (a field
# added to a struct it holds) would write past what its caller set aside.
module() {
  local name=$1 imports=$2; shift 2
  local stamp="$OUT/$name.stamp" imported=()
  for module in $imports; do imported+=("$OUT/$module.stamp"); done
  if [ -f "$stamp" ] && [ -z "$(find "$@" "${imported[@]}" -newer "$stamp" 2>/dev/null | head -1)" ] \
    && [ -z "$(find Fuzz/build.sh -newer "$stamp")" ]; then
    return
  fi
  echo "fuzz: compiling $name" >&2
  "$SWIFTC" "${FLAGS[@]}" -wmo -emit-library -static -module-name "$name" \
    -emit-module-path "$OUT/$name.swiftmodule" -o "$OUT/lib$name.a" "$@"
  touch "$stamp"
}

target() {
  local name=$1 source=$2; shift 2
  if [ -x "$OUT/$name" ] && [ -z "$(find "$source" "$OUT"/*.a -newer "$OUT/$name" 2>/dev/null | head -1)" ]; then
    return
  fi
  echo "fuzz: linking $name" >&2
  # lld, the toolchain's: gold warns about every sanitizer helper symbol.
  "$SWIFTC" "${FLAGS[@]}" -use-ld=lld -module-name "Fuzz_${name//-/_}" "$source" "$@" -o "$OUT/$name"
}

# library MODULE…: a package dependency's module, then the modules it imports, built by
# SwiftPM as `swift build` builds them (with the settings their package gives them, not
# instrumented: the fuzzers look for Herald's faults) and taken into $OUT as an interface
# and one archive each.
library() {
  local bin
  bin=$("$SWIFT" build --show-bin-path)
  "$SWIFT" build --target "$1" >&2
  for name in "$@"; do
    if [ ! -f "$OUT/$name.stamp" ] || [ -n "$(find "$bin/$name.build" -name '*.o' -newer "$OUT/$name.stamp" | head -1)" ]; then
      echo "fuzz: taking $name from SwiftPM's build" >&2
      cp "$bin/Modules/$name.swiftmodule" "$OUT/"
      rm -f "$OUT/lib$name.a"
      ar rcs "$OUT/lib$name.a" "$bin/$name.build"/*.o
      touch "$OUT/$name.stamp"
    fi
  done
}

# DequeModule (swift-collections), which HeraldDesktop's queues are, with what it imports.
library DequeModule ContainersPreview InternalCollectionsUtilities

module HeraldProtocol "" $(find Sources/HeraldProtocol -name '*.swift' | sort)
module HeraldCore "HeraldProtocol" $(find Sources/HeraldCore -name '*.swift' | sort)
module HeraldStorage "HeraldProtocol HeraldCore" Sources/HeraldStorage/{CRC32C,OpenSnapshotFile,SnapshotFile,SnapshotFileError+IO,SnapshotHeader}.swift \
  Sources/HeraldStorage/ChangeLog/{ChangeRecord,ChangeLogFile}.swift $(find Sources/HeraldStorage/Payload -name '*.swift' | sort)

# HeraldBus imports libsystemd's sd-bus through the CSystemd module map.
module HeraldBus "" -Xcc -fmodule-map-file=Sources/CSystemd/module.modulemap $(find Sources/HeraldBus -name '*.swift' | sort)
module HeraldDesktop "HeraldProtocol HeraldBus DequeModule" -Xcc -fmodule-map-file=Sources/CSystemd/module.modulemap \
  $(find Sources/HeraldDesktop -name '*.swift' | sort)
module HeraldSync "HeraldProtocol" $(find Sources/HeraldSync -name '*.swift' | sort)

target framer-parser Fuzz/Targets/FramerParser.swift -lHeraldProtocol
target params Fuzz/Targets/Params.swift -lHeraldCore -lHeraldProtocol
target snapshot Fuzz/Targets/Snapshot.swift -lHeraldStorage -lHeraldCore -lHeraldProtocol
target change-log Fuzz/Targets/ChangeLog.swift -lHeraldStorage -lHeraldCore -lHeraldProtocol
target notify Fuzz/Targets/Notify.swift -Xcc -fmodule-map-file=Sources/CSystemd/module.modulemap -lHeraldDesktop -lHeraldBus -lHeraldProtocol \
  -lDequeModule -lContainersPreview -lInternalCollectionsUtilities -lsystemd
target sync-focus Fuzz/Targets/SyncFocus.swift -lHeraldSync -lHeraldProtocol
