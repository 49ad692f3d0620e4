#!/usr/bin/env bash
# Walks the researcher website in headless Chromium against a freshly started server.
#
# usage: scripts/browser-walk.sh PATH/TO/momentary
#
# Makes a throw-away data folder and a researcher account (everything else, the study and its
# survey included, the walk makes on the website; see scripts/browser_walk.py), starts
# `momentary serve` on a free port, waits for /healthz, runs scripts/browser_walk.py, and always
# stops the server. On failure it prints the server's log and keeps the data folder (with the
# downloads, a screenshot and the page source) for a look.
#
# Needs /usr/bin/chromium, /usr/bin/chromedriver (Debian's chromium and chromium-driver) and the
# Python modules selenium, openpyxl, pandas, fastkml and icalendar.
set -euo pipefail

if [[ $# -ne 1 || ! -x "$1" ]]; then
    echo "usage: $0 PATH/TO/momentary   (the built server binary, with its resource bundle beside it)" >&2
    exit 2
fi
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
scripts=$(cd "$(dirname "$0")" && pwd)

for tool in /usr/bin/chromium /usr/bin/chromedriver; do
    [[ -x $tool ]] || { echo "browser-walk: $tool is missing (apt-get install chromium chromium-driver)" >&2; exit 2; }
done
python3 -c 'import selenium, openpyxl, pandas, fastkml, icalendar' 2>/dev/null \
    || { echo "browser-walk: python3 needs selenium, openpyxl, pandas, fastkml and icalendar (pip install selenium openpyxl pandas fastkml icalendar)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/browser-walk.XXXXXX")
data=$work/data
log=$work/server.log
server_pid=""

finish() {
    local status=$?
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [[ $status -eq 0 ]]; then
        rm -rf "$work"
    else
        echo "---- server log ($log) ----" >&2
        cat "$log" >&2 2>/dev/null || true
        echo "---- end of server log; the walk's files are kept in $work ----" >&2
    fi
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT TERM

email=walker@example.org
password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')

# Its log (the database migrations) goes to a file, shown only if it fails.
"$binary" researchers create --email "$email" --role developer --name "Browser Walker" \
    --password "$password" --data "$data" > "$work/researcher.out" 2>&1 \
    || { echo "browser-walk: creating the researcher failed:" >&2; cat "$work/researcher.out" >&2; exit 1; }

# Port 0: the server picks a free port and says which on its "listening on" line, so two walks
# (or another server on the machine) never collide.
"$binary" serve --port 0 --data "$data" > "$log" 2>&1 &
server_pid=$!

base_url=""
for _ in $(seq 1 300); do
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "browser-walk: the server stopped while starting" >&2
        exit 1
    fi
    base_url=$(sed -n 's/^Momentary is listening on \(http:[^ ]*\).*/\1/p' "$log" | head -n 1)
    if [[ -n $base_url ]] && curl -fsS --max-time 2 "$base_url/healthz" > /dev/null 2>&1; then
        break
    fi
    base_url=""
    sleep 0.1
done
if [[ -z $base_url ]]; then
    echo "browser-walk: the server did not answer /healthz within 30 s" >&2
    exit 1
fi
echo "server up at $base_url"

python3 "$scripts/browser_walk.py" --base-url "$base_url" --email "$email" --password "$password" \
    --downloads "$work/downloads"
