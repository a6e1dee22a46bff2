# Sourced by the scripts that download from a registry: a download may fail once, so
# `retry cmd args...` tries three times, waiting a little longer each time, before giving up.
retry() {
    local attempt
    for attempt in 1 2 3; do
        if "$@"; then return 0; fi
        echo "attempt $attempt of '$*' failed; retrying" >&2
        sleep $((attempt * 5))
    done
    "$@"
}
