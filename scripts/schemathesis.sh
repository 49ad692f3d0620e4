#!/usr/bin/env bash
# Fuzzes the participant API and the research API against openapi.yaml with schemathesis, on a
# freshly started server.
#
# usage: scripts/schemathesis.sh PATH/TO/momentary [SECONDS]
#
# Starts `momentary serve --demo` on a free port in a throw-away data folder, registers one
# participant (whose credentials schemathesis uses for the authenticated operations), and runs
# every schemathesis check for at most SECONDS (default 150) with a fixed seed. Any server error
# (5xx), any response that does not match the document (status, schema, headers, content type),
# any schema-violating request the server accepts or any method not in the document that is not
# answered 405 fails the run.
#
# One check is left out: positive_data_acceptance ("a request valid by the schema must succeed").
# JSON Schema cannot say everything the server rightly checks: a photo body must be a JPEG,
# signalling hours must fit the study's beeps, a survey's answers must fit the survey. Such
# requests get a documented 4xx, which that check would count as a failure.
set -euo pipefail

if [[ $# -lt 1 || ! -x "$1" ]]; then
    echo "usage: $0 PATH/TO/momentary [SECONDS]" >&2
    exit 2
fi
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
seconds=${2:-150}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v st >/dev/null || { echo "schemathesis: the st command is missing (pip install schemathesis)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/schemathesis.XXXXXX")
log=$work/server.log
source "$root/scripts/server-process.sh"
MOMENTARY_ENV=testing serve_until_healthy --demo --data "$work/data"

"$binary" participant register --server "$base_url" --study demo --consent --state "$work/participant.json" > "$work/register.out" 2>&1 \
    || { echo "schemathesis: registering a participant failed:" >&2; cat "$work/register.out" >&2; exit 1; }
credentials=$(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["credentials"]
print(c["participant_id"].lower() + ":" + c["secret"])' "$work/participant.json")

echo "schemathesis against $base_url for at most $seconds s"
cd "$work"  # schemathesis keeps its cache (.schemathesis/) in the current folder
st run "$root/openapi.yaml" --url "$base_url" --auth "$credentials" --exclude-tag research \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples 30 --max-time "$seconds" --seed 20261124 --warnings off \
    --report junit --report-dir "$work/report"

# The research API, with a personal access token of the demo researcher that may also beep.
token=$("$binary" tokens create --researcher demo@momentary.local --trigger-beeps --name schemathesis --data "$work/data" 2>/dev/null | tail -n 1)
[[ $token == mom_* ]] || { echo "schemathesis: making an access token failed" >&2; exit 1; }
research_seconds=$(( seconds / 2 ))
echo "schemathesis against the research API for at most $research_seconds s"
st run "$root/openapi.yaml" --url "$base_url" -H "Authorization: Bearer $token" --include-tag research \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples 20 --max-time "$research_seconds" --seed 20261128 --warnings off \
    --report junit --report-dir "$work/report-research"
