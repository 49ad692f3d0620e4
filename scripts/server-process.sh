# Sourced by scripts that drive a freshly started server (schemathesis.sh):
# starts `momentary serve` on a free port and waits for /healthz, and stops it however the script
# ends, keeping the work folder and showing the server's log when the script failed.
#
# The sourcing script sets `binary`, `work` (a fresh folder) and `log`, calls `serve_until_healthy`
# with serve's extra arguments, and reads `base_url`.

server_pid=""
base_url=""

stop_server_and_report() {
    local status=$?
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [[ $status -eq 0 ]]; then
        rm -rf "$work"
    else
        echo "---- server log ($log) ----" >&2
        tail -n 200 "$log" >&2 2>/dev/null || true
        echo "---- end of server log; files are kept in $work ----" >&2
    fi
    exit "$status"
}
trap stop_server_and_report EXIT
trap 'exit 130' INT TERM

# Port 0: the server picks a free port and says which on its "listening on" line, so two runs
# (or another server on the machine) never collide.
serve_until_healthy() {
    "$binary" serve --port 0 "$@" > "$log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 300); do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "$(basename "$0"): the server stopped while starting" >&2
            exit 1
        fi
        base_url=$(sed -n 's/^Momentary is listening on \(http:[^ ]*\).*/\1/p' "$log" | head -n 1)
        if [[ -n $base_url ]] && curl -fsS --max-time 2 "$base_url/healthz" > /dev/null 2>&1; then
            echo "server up at $base_url"
            return 0
        fi
        base_url=""
        sleep 0.1
    done
    echo "$(basename "$0"): the server did not answer /healthz within 30 s" >&2
    exit 1
}
