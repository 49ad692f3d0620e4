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
source "$scripts/server-process.sh"

email=walker@example.org
password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')

# Its log (the database migrations) goes to a file, shown only if it fails. "--password=…" because
# a random password may start with "-", which would read as an option.
"$binary" researchers create --email "$email" --role developer --name "Browser Walker" \
    --password="$password" --data "$data" > "$work/researcher.out" 2>&1 \
    || { echo "browser-walk: creating the researcher failed:" >&2; cat "$work/researcher.out" >&2; exit 1; }

serve_until_healthy --data "$data"

python3 "$scripts/browser_walk.py" --base-url "$base_url" --email "$email" --password="$password" \
    --downloads "$work/downloads"
