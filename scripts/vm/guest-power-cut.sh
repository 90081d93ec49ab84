# Sourced by guest-test.sh (for its say/begin/fail/end/rpc/finish) when the kernel's
# command line asks for the power-cut rounds; scripts/vm-test.sh boots the same disk image
# once per round after the first boot's cases:
#   herald.verify=N:MODE   checks the restart after power cut N, and says "restored N M":
#                          donations rN-1 … rN-M are there, and rN-(M+1) is not
#   herald.cut=N:MODE      then sets heraldd's --durability to MODE (`default`: the unit
#                          as installed) and has pat donate rN-1, rN-2, … one at a time,
#                          saying "ack N n" once rN-n is answered, until the host kills QEMU
# With neither, the boot runs finish and powers off. One request at a time on one
# connection: what was acknowledged is a prefix, and what replay restores is one too.

cmdline="$(cat /proc/cmdline)"
verify="$(sed -n 's/.*herald\.verify=\([0-9]*\).*/\1/p' <<<"$cmdline")"
verify_mode="$(sed -n 's/.*herald\.verify=[0-9]*:\([a-z-]*\).*/\1/p' <<<"$cmdline")"
cut="$(sed -n 's/.*herald\.cut=\([0-9]*:[a-z-]*\).*/\1/p' <<<"$cmdline")"
WRITER=pat

if [ -n "$verify" ]; then
    begin "the restart after power cut $verify is clean"
    # Patient: under emulation on a busy host, the start takes seconds.
    answer="$(socat -t 60 - "UNIX-CONNECT:$SOCK" <<<'{"jsonrpc":"2.0","id":1,"method":"stats"}' 2>&1)"
    [[ "$answer" == *'"result"'* ]] || fail "the first request after the power cut answered: $answer"
    wait_for 30 sh -c '[ "$(systemctl show -P ActiveState herald.service)" = active ]' \
        || fail "herald.service is $(service_state)"
    [ "$(systemctl show -P NRestarts herald.service)" = 0 ] \
        || fail "heraldd was restarted $(systemctl show -P NRestarts herald.service) times"
    journal="$(journalctl -b -u herald.service -o cat --no-pager 2>&1)"
    grep -F 'refuses to start' <<<"$journal" && fail "heraldd refused to start"
    # The start-up line: a killed predecessor, and (with a log that held something) the replay.
    started="$(grep -E -m 1 'state in .*did not stop cleanly' <<<"$journal")"
    [ -n "$started" ] || fail "the start-up line does not say the previous heraldd was cut off: $(head -c 600 <<<"$journal")"
    if [ "$verify_mode" = log ] && ! grep -qE 'replayed [0-9]+ changes? from the change log' <<<"$started"; then
        fail "under --durability log the start replayed nothing: $started"
    fi
    say "# restart $verify: ${started:0:400}"
    end

    # Which of rN-1, rN-2, … are there: update-content answers 1001 for a donation that is not.
    coproc PROBE { runuser -u "$WRITER" -- socat -t 30 - "UNIX-CONNECT:$SOCK" 2>&1; }
    restored=0
    while :; do
        printf '{"jsonrpc":"2.0","id":%d,"method":"update-content","params":{"app":"%s","interactionIdentifier":"r%s-%d","content":{"body":"restored"}}}\n' \
            "$((restored + 1))" "$APP" "$verify" "$((restored + 1))" >&"${PROBE[1]}"
        IFS= read -r -t 30 answer <&"${PROBE[0]}" || { answer="(no answer)"; break; }
        [[ "$answer" == *'"result"'* ]] || break
        restored=$((restored + 1))
    done
    kill "$PROBE_PID" 2>/dev/null
    wait "$PROBE_PID" 2>/dev/null
    [[ "$answer" == *'"code":1001'* ]] || say "# restored $verify: the probe of r$verify-$((restored + 1)) answered $answer"
    say "restored $verify $restored"
fi

if [ -z "$cut" ]; then
    finish
fi

round="${cut%%:*}"
mode="${cut#*:}"
id -u "$WRITER" >/dev/null 2>&1 || useradd -m -G herald "$WRITER"
# MODE "default" is the unit as installed: heraldd's default --durability.
dropin=/etc/systemd/system/herald.service.d/durability.conf
if [ "$mode" = default ]; then
    rm -f "$dropin"
else
    mkdir -p "${dropin%/*}"
    printf '[Service]\nExecStart=\nExecStart=/usr/bin/heraldd --durability %s\n' "$mode" >"$dropin"
fi
systemctl daemon-reload
# Stopped cleanly (a final snapshot), so that the next request starts it in MODE; then
# everything before the writes is on the disk.
systemctl stop herald.service
sync
say "# power cut $round: $(systemctl show -P ExecStart herald.service | grep -o 'argv\[\]=[^;]*'), $WRITER donating"

coproc WRITE { runuser -u "$WRITER" -- socat -t 30 - "UNIX-CONNECT:$SOCK" 2>&1; }
n=0
while :; do
    n=$((n + 1))
    printf '{"jsonrpc":"2.0","id":%d,"method":"donate","params":{"app":"%s","interaction":{"identifier":"r%s-%d","direction":"incoming","intent":{"type":"sendMessage","sender":{"handle":{"value":"ann@example.org","type":"emailAddress"},"displayName":"Ann Lee"},"conversationIdentifier":"c-r%s","content":"Message %d"}}}}\n' \
        "$n" "$APP" "$round" "$n" "$round" "$n" >&"${WRITE[1]}"
    IFS= read -r -t 30 answer <&"${WRITE[0]}" || { answer="(no answer)"; break; }
    [[ "$answer" == *'"result"'* ]] || break
    say "ack $round $n"
done
# The host kills QEMU a few seconds after the first acknowledgement; a writer that stops
# first is a failure it reports (the acknowledgements stop short).
say "# power cut $round: the writer stopped at r$round-$n: $answer"
sleep infinity
