#!/bin/sh
# The README main job (temporarily on ../shared/corpora until own examples land): ingest into a fresh store, then
# verify examples/main-job.jsonl against it and print the table. No server, no network.
# Exit code: 1, because some citations need review (that is the point of the example).
set -e
cd "$(dirname "$0")/.."
STORE="${1:-$(mktemp -d)/ipsis-store}"
ipsis ingest ../shared/corpora/rfc/rfc7519.txt --id rfc7519 --origin https://www.rfc-editor.org/rfc/rfc7519.txt --store "$STORE"
ipsis ingest ../shared/corpora/rfc/rfc9111.txt --id rfc9111 --origin https://www.rfc-editor.org/rfc/rfc9111.txt --store "$STORE"
ipsis ingest ../shared/corpora/pt/crp-constituicao-republica-portuguesa.txt --id crp --store "$STORE"
# Two versions of the Brazilian constitution: as promulgated, and compiled up to EC 108/2020.
ipsis ingest ../shared/corpora/br/cf88-senado-texto-original-1988.html --id cf88 --version 1988-10-05 --store "$STORE"
ipsis ingest ../shared/corpora/br/cf88-senado-compilado-ec108-2020.html --id cf88 --version 2020-08-26 --store "$STORE"
ipsis sources --store "$STORE"
ipsis verify examples/main-job.jsonl --store "$STORE" --log "$STORE/last-run.json"
