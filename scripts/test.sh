#!/usr/bin/env bash
# `npm test`: every check and suite, in order, stopping at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "system packages"
bash scripts/system-deps.sh

step "lint and types"
npx biome check .
npx tsc -p tsconfig.json --noEmit

step "build (Preact alias, what users get) and build:react (guard)"
npm run build
npm run build:react

step "unit and API tests (SQLite and PostgreSQL)"
npx vitest run

step "end-to-end tests in Chromium"
npx playwright test

echo
echo "npm test: all suites passed"
