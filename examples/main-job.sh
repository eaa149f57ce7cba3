#!/bin/sh
# The README main job: ingest the example documents in examples/sources/ into a store, then
# verify examples/main-job.jsonl against it and print the table. No server, no network.
# The store is examples/demo-store/ (made afresh on each run), or the folder given as the first
# argument (made if missing, reused if present).
# Exit code: 1, because some citations need review (that is the point of the example).
set -e
cd "$(dirname "$0")/.."
if [ -n "$1" ]; then STORE="$1"; else STORE=examples/demo-store; rm -rf "$STORE"; fi
DOCS=examples/sources
DATE=--retrieved=2026-03-02
ipsis ingest $DOCS/returns-policy-v1.md --id returns --version v1 --origin https://example.org/returns/2024 $DATE --store "$STORE"
ipsis ingest $DOCS/returns-policy-v2.md --id returns --version v2 --origin https://example.org/returns/2025 $DATE --store "$STORE"
ipsis ingest $DOCS/norms/lei-municipal-4210-2024.txt --id lei-4210 $DATE --store "$STORE"
ipsis ingest $DOCS/norms/reglamento-archivo-villaserena.txt --id reglamento-archivo $DATE --store "$STORE"
ipsis ingest $DOCS/draft-example-quote-anchors-00.txt --id quote-anchors $DATE --store "$STORE"
ipsis sources --store "$STORE"
ipsis verify examples/main-job.jsonl --store "$STORE" --log examples/last-run.json
