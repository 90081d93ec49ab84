# Herald: the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
UNITDIR ?= $(PREFIX)/lib/systemd/system
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
CATALOGDIR ?= /usr/lib/systemd/catalog
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
DOCDIR ?= $(PREFIX)/share/doc/herald
PORTALDIR ?= /usr/share/xdg-desktop-portal/portals
DBUSSERVICEDIR ?= $(PREFIX)/share/dbus-1/services
SWIFT ?= swift
# Debian packages the build, the tests and `make run` need.
APT_PACKAGES := libsystemd-dev pkg-config socat systemd python3 python3-jsonschema util-linux iproute2 man-db \
  mosquitto mosquitto-clients libmosquitto-dev python3-paho-mqtt python3-jinja2 \
  dbus xvfb dunst qemu-system-x86 debootstrap e2fsprogs bubblewrap libnotify-bin libglib2.0-bin xdg-desktop-portal \
  unicode-data tzdata
BENCH_APT_PACKAGES := redis-server redis-tools dbus xvfb dunst
RUN_DIR := $(CURDIR)/.run
SOCKET ?= $(RUN_DIR)/herald.sock
RUN_ARGS ?=
# Release builds carry the Swift runtime inside them, so what `make install` installs
# runs on a host without the toolchain (docs/operations.md: "Running under systemd").
RELEASE_FLAGS := -c release --static-swift-stdlib
RELEASE_BIN = $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)

.PHONY: all build release multicall run test test-vm deps bench-deps generate generate-folding install uninstall verify-units check-man clean format lint bench bench-compare bench-wakeups bench-sync bench-snapshot bench-search bench-durability bench-durability-sliced fuzz

all: build

## deps: install the Debian packages Herald needs (only when missing, only as root).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "Missing Debian packages:$$missing — run: sudo apt-get install$$missing" >&2; exit 1; \
	  fi; \
	fi

bench-deps:
	@$(MAKE) --no-print-directory deps APT_PACKAGES="$(APT_PACKAGES) $(BENCH_APT_PACKAGES)"

## generate: embed Protocol/openrpc.json into the sources rpc.discover serves it from.
generate:
	@sh scripts/embed-openrpc.sh

## generate-folding: the search's folding tables from the Unicode Character Database (unicode-data).
generate-folding: deps
	python3 scripts/generate-search-folding.py

build: deps generate
	$(SWIFT) build

release: deps generate
	$(SWIFT) build $(RELEASE_FLAGS)

## multicall: `herald`, heraldd, heraldctl and herald-notify linked as one program, which make install installs.
multicall: release
	sh scripts/link-multicall.sh "$(RELEASE_BIN)" "$(RELEASE_BIN)/herald"

## run: build in release mode and run heraldd in the foreground on $(SOCKET).
run: release
	@mkdir -p $(RUN_DIR)
	@echo "heraldd on $(SOCKET) — try:"
	@echo "  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"stats\"}' | socat - UNIX-CONNECT:$(SOCKET)"
	@echo "  $(RELEASE_BIN)/heraldctl --socket $(SOCKET) status"
	exec $(RELEASE_BIN)/heraldd --socket $(SOCKET) --state-dir $(RUN_DIR)/state $(RUN_ARGS)

## test: unit, in-process and end-to-end tests, with a real journald and the units verified,
## then the VM test: Herald installed into Debian 12 booted with systemd as PID 1.
test: deps generate
	@bash scripts/ensure-journald.sh || echo "note: no journald could be started; journal tests will be skipped"
	@bash scripts/verify-units.sh
	@bash scripts/verify-user-units.sh
	@python3 scripts/check-openrpc.py
	@python3 scripts/check-protocol-version.py
	@python3 -m unittest discover -s scripts/tests
	@$(MAKE) --no-print-directory check-man
	$(SWIFT) build --build-tests
	@command -v Xvfb >/dev/null && command -v dunst >/dev/null && command -v dbus-daemon >/dev/null \
	  || echo "note: no Xvfb, dunst or dbus-daemon: the desktop (herald-notify) tests will be skipped"
	@python3 scripts/check-man-flags.py "$$($(SWIFT) build --show-bin-path)"
	HERALDD="$$($(SWIFT) build --show-bin-path)/heraldd" $(SWIFT) test --skip-build
	HERALDD="$$($(SWIFT) build --show-bin-path)/heraldd" python3 -m unittest discover -s clients/python/tests
	HERALDD="$$($(SWIFT) build --show-bin-path)/heraldd" python3 -m unittest discover -s examples/tests
	@bash Fuzz/run.sh --check
	@$(MAKE) --no-print-directory test-vm

## test-vm: only the VM test (scripts/vm-test.sh; the Debian root is cached in ~/.cache/herald-vm).
test-vm: deps
	bash scripts/vm-test.sh

## fuzz: run each libFuzzer target (framer+parser, params, snapshot and change log readers) for FUZZ_SECONDS; FUZZ_TARGETS picks some.
FUZZ_SECONDS ?= 300
FUZZ_TARGETS ?=
fuzz:
	bash Fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## bench: Herald against the floor and redis-server, journal off and on, a bystander uid beside one doing its worst
## (QUICK=1: under a minute; PROFILE=1: also a profile; BYSTANDER=only: the bystander alone).
bench: bench-deps generate
	QUICK="$(QUICK)" PROFILE="$(PROFILE)" bash scripts/bench.sh

## bench-compare: two heraldd builds (BASE=, NEW=) side by side with the floors and redis, alternating (ROUNDS=5).
bench-compare: bench-deps
	BASE="$(BASE)" NEW="$(NEW)" bash scripts/bench-compare.sh

## bench-durability: donate and update-content 16×16 in each --durability mode side by side: req/s, CPU and the log's writes and fdatasyncs per request.
bench-durability:
	DURATION="$(or $(DURATION),5)" ROUNDS="$(or $(ROUNDS),3)" bash scripts/bench-durability.sh

## bench-durability-sliced: snapshot and the default at once, their loads taking turns each second, so the machine's drift falls on both (SLICES=30, SCENARIO=donate).
bench-durability-sliced:
	$(SWIFT) build -c release --product heraldd
	$(SWIFT) build -c release --product herald-bench
	SLICES="$(or $(SLICES),30)" SCENARIO="$(or $(SCENARIO),donate)" python3 scripts/bench-durability-sliced.py

## bench-wakeups: how often heraldd wakes at rest over WINDOW s (default 60), beside dbus-daemon; BASE= adds an older heraldd.
bench-wakeups: bench-deps
	$(SWIFT) build --product heraldd
	BASE="$(BASE)" WINDOW="$(or $(WINDOW),60)" NEW="$$($(SWIFT) build --show-bin-path)/heraldd" bash scripts/bench-wakeups.sh

## bench-sync: herald-sync between two hosts over 1,000 changes (CHANGES=) beside the broker's own round trip, and at rest (WINDOW=60).
bench-sync: bench-deps
	$(SWIFT) build -c release --scratch-path .build-bench -Xswiftc -g --product heraldd
	$(SWIFT) build -c release --scratch-path .build-bench -Xswiftc -g --product herald-sync
	HERALDD="$$($(SWIFT) build -c release --scratch-path .build-bench -Xswiftc -g --show-bin-path)/heraldd" \
	  CHANGES="$(or $(CHANGES),1000)" WINDOW="$(or $(WINDOW),60)" python3 scripts/bench-sync.py

## bench-snapshot: snapshot, restore, memory and latency figures for N interactions (default 1,000,000).
bench-snapshot: deps
	bash scripts/bench-snapshot.sh $(N)

## bench-search: search-notifications over N notifications (default 100,000): p99 and the index's memory;
## then a list of distinct words at --max-notification-bytes: the index's memory against the limit.
bench-search: deps
	swift build -c release --product herald-bench
	.build/release/herald-bench search --notifications $(or $(N),100000)
	.build/release/herald-bench search --distinct-words 64

verify-units:
	@bash scripts/verify-units.sh
	@bash scripts/verify-user-units.sh

## check-man: the man pages render, without a warning from man or groff.
check-man:
	@for page in man/heraldd.8 man/heraldctl.1 man/herald-notify.1 man/herald-sync.1; do \
	  out="$$(MANWIDTH=80 man --warnings -l $$page 2>&1 >/dev/null)"; \
	  if [ -n "$$out" ]; then echo "$$page: $$out" >&2; exit 1; fi; \
	  [ -n "$$(MANWIDTH=80 man -l $$page 2>/dev/null)" ] || { echo "$$page renders empty" >&2; exit 1; }; \
	done

install: multicall
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(USERUNITDIR) $(DESTDIR)$(CATALOGDIR) $(DESTDIR)$(SYSUSERSDIR) \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) \
	  $(DESTDIR)$(DOCDIR)/Protocol $(DESTDIR)$(DOCDIR)/docs
	# One program under three names, hard links to it (docs/operations.md, "One program, three names").
	install -m 0755 -s $(RELEASE_BIN)/herald $(DESTDIR)$(BINDIR)/heraldd
	for program in heraldctl herald-notify; do ln -f $(DESTDIR)$(BINDIR)/heraldd $(DESTDIR)$(BINDIR)/$$program; done
	install -m 0755 -s $(RELEASE_BIN)/herald-sync $(DESTDIR)$(BINDIR)/herald-sync
	install -m 0644 man/heraldd.8 $(DESTDIR)$(MANDIR)/man8/heraldd.8
	install -m 0644 man/heraldctl.1 $(DESTDIR)$(MANDIR)/man1/heraldctl.1
	install -m 0644 man/herald-notify.1 $(DESTDIR)$(MANDIR)/man1/herald-notify.1
	install -m 0644 man/herald-sync.1 $(DESTDIR)$(MANDIR)/man1/herald-sync.1
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 0644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	install -m 0644 Protocol/README.md Protocol/DELIVERY.md Protocol/openrpc.json Protocol/sync-focus.schema.json Protocol/sync-focus-definition.schema.json $(DESTDIR)$(DOCDIR)/Protocol/
	ctl=$(RELEASE_BIN)/heraldctl; \
	  $$ctl --generate-completion-script bash > $(DESTDIR)$(BASHCOMPDIR)/heraldctl && \
	  $$ctl --generate-completion-script zsh > $(DESTDIR)$(ZSHCOMPDIR)/_heraldctl && \
	  $$ctl --generate-completion-script fish > $(DESTDIR)$(FISHCOMPDIR)/heraldctl.fish
	chmod 0644 $(DESTDIR)$(BASHCOMPDIR)/heraldctl $(DESTDIR)$(ZSHCOMPDIR)/_heraldctl $(DESTDIR)$(FISHCOMPDIR)/heraldctl.fish
	sed -e 's|^ExecStart=/usr/bin/env heraldd|ExecStart=$(BINDIR)/heraldd|' -e 's|/usr/local/share/doc/herald|$(DOCDIR)|' \
	  Units/herald.service > $(DESTDIR)$(UNITDIR)/herald.service
	sed 's|/usr/local/share/doc/herald|$(DOCDIR)|' Units/herald.socket > $(DESTDIR)$(UNITDIR)/herald.socket
	chmod 0644 $(DESTDIR)$(UNITDIR)/herald.socket
	install -m 0644 Units/herald.catalog $(DESTDIR)$(CATALOGDIR)/herald.catalog
	install -m 0644 Units/herald.sysusers $(DESTDIR)$(SYSUSERSDIR)/herald.conf
	chmod 0644 $(DESTDIR)$(UNITDIR)/herald.service
	sed -e 's|^ExecStart=/usr/bin/env herald-notify|ExecStart=$(BINDIR)/herald-notify|' -e 's|/usr/local/share/doc/herald|$(DOCDIR)|' \
	  Units/user/herald-notify.service > $(DESTDIR)$(USERUNITDIR)/herald-notify.service
	chmod 0644 $(DESTDIR)$(USERUNITDIR)/herald-notify.service
	sed -e 's|^ExecStart=/usr/bin/env herald-notify|ExecStart=$(BINDIR)/herald-notify|' -e 's|/usr/local/share/doc/herald|$(DOCDIR)|' \
	  Units/user/herald-gateway.service > $(DESTDIR)$(USERUNITDIR)/herald-gateway.service
	chmod 0644 $(DESTDIR)$(USERUNITDIR)/herald-gateway.service
	sed -e 's|^ExecStart=/usr/bin/env herald-sync|ExecStart=$(BINDIR)/herald-sync|' -e 's|/usr/local/share/doc/herald|$(DOCDIR)|' \
	  Units/user/herald-sync.service > $(DESTDIR)$(USERUNITDIR)/herald-sync.service
	chmod 0644 $(DESTDIR)$(USERUNITDIR)/herald-sync.service
	for unit in herald-renderer-bus.service herald-renderer@.service; do \
	  sed 's|/usr/local/share/doc/herald|$(DOCDIR)|' Units/user/$$unit > $(DESTDIR)$(USERUNITDIR)/$$unit && chmod 0644 $(DESTDIR)$(USERUNITDIR)/$$unit; \
	done
	install -d $(DESTDIR)$(PORTALDIR) $(DESTDIR)$(DBUSSERVICEDIR)
	install -m 0644 Units/portal/herald.portal $(DESTDIR)$(PORTALDIR)/herald.portal
	install -m 0644 Units/portal/org.freedesktop.impl.portal.desktop.herald.service $(DESTDIR)$(DBUSSERVICEDIR)/
	@if [ -z "$(DESTDIR)" ]; then \
	  systemd-sysusers $(SYSUSERSDIR)/herald.conf || true; \
	  journalctl --update-catalog || true; \
	fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/heraldd $(DESTDIR)$(UNITDIR)/herald.service $(DESTDIR)$(UNITDIR)/herald.socket \
	  $(DESTDIR)$(CATALOGDIR)/herald.catalog $(DESTDIR)$(SYSUSERSDIR)/herald.conf \
	  $(DESTDIR)$(BINDIR)/heraldctl $(DESTDIR)$(BINDIR)/herald-notify $(DESTDIR)$(USERUNITDIR)/herald-notify.service \
	  $(DESTDIR)$(USERUNITDIR)/herald-gateway.service $(DESTDIR)$(USERUNITDIR)/herald-renderer-bus.service \
	  $(DESTDIR)$(BINDIR)/herald-sync $(DESTDIR)$(USERUNITDIR)/herald-sync.service $(DESTDIR)$(MANDIR)/man1/herald-sync.1 \
	  '$(DESTDIR)$(USERUNITDIR)/herald-renderer@.service' $(DESTDIR)$(PORTALDIR)/herald.portal \
	  $(DESTDIR)$(DBUSSERVICEDIR)/org.freedesktop.impl.portal.desktop.herald.service \
	  $(DESTDIR)$(MANDIR)/man8/heraldd.8 $(DESTDIR)$(MANDIR)/man1/heraldctl.1 $(DESTDIR)$(MANDIR)/man1/herald-notify.1 \
	  $(DESTDIR)$(BASHCOMPDIR)/heraldctl $(DESTDIR)$(ZSHCOMPDIR)/_heraldctl $(DESTDIR)$(FISHCOMPDIR)/heraldctl.fish
	rm -rf $(DESTDIR)$(DOCDIR)

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --recursive Sources Tests Package.swift

clean:
	rm -rf .build .build-fuzz $(RUN_DIR)
