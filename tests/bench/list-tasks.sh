#!/usr/bin/env bash
# A2A `ListTasks` over 2,000 tasks in a real Redis (tests/tests/scale/listing.rs): a page read from
# the store's listing against the same page read by loading every task, interleaved, medians of 10
# calls each. Installs redis-server (Debian) when missing. Prints a Markdown table
# (docs/performance.md). Not part of CI.
#
#   bash tests/bench/list-tasks.sh [tasks]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/redis.sh"
cd "$root"
LIST_TASKS=${1:-2000} REDIS_SERVER="$redis_server" \
    cargo test --quiet --release -p tool-tests --test scale -- --ignored --exact listing::list_tasks_from_the_listing_and_from_every_task --nocapture
