#!/usr/bin/env bash
# `npm test`: every check and suite, in order, stopping at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "system packages"
bash scripts/system-deps.sh

step "lint and types"
npx biome check .
# Unused files, exports and dependencies, undeclared imports (knip.jsonc says what it knows).
npx knip
npx tsc -p tsconfig.json --noEmit

step "translations (every locale complete, catalogs current)"
npm run i18n:check

step "build (Preact alias, what users get) and build:react (guard)"
npm run build
npm run build:react

rm -rf test-reports && mkdir -p test-reports

# From here the run ends with the summary (counts, the slowest tests), also when a suite fails:
# then it shows what there is, and the run's exit status stays the failing suite's.
summary() {
  local status=$?
  trap - EXIT
  echo
  if [ "$status" -eq 0 ]; then
    node scripts/test-summary.mjs || status=$?
  else
    node scripts/test-summary.mjs || true
  fi
  exit "$status"
}
trap summary EXIT

step "unit, contract and API tests (SQLite and PostgreSQL)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-reports/vitest.json \
  --reporter=./scripts/vitest-timings.ts

step "end-to-end tests in Chromium"
PLAYWRIGHT_JSON_OUTPUT_NAME=test-reports/playwright.json npx playwright test --reporter=list,json
