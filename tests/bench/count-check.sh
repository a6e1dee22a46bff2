# Sourced by the front-end benchmarks: `count CRATE` prints the instructions (callgrind) of
# `cargo check` of the crate `$work/CRATE` alone, its dependencies checked beforehand, from
# clean and without incremental caches. Needs `$work` set and valgrind.
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0
wrapper="$work/count-rustc.sh"
# Run as RUSTC_WRAPPER: counts the rustc that checks $COUNT_CRATE, runs the others as they are.
cat > "$wrapper" <<'WRAP'
#!/usr/bin/env bash
for arg in "$@"; do
    if [ "$arg" = "$COUNT_CRATE" ]; then
        exec valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2> "$COUNT_LOG"
    fi
done
exec "$@"
WRAP
chmod +x "$wrapper"
count() { # instructions of `cargo check` of crate $1, from clean
    (cd "$work/$1" && cargo check -q && cargo clean -q -p "$1")
    (cd "$work/$1" && COUNT_CRATE=$1 COUNT_LOG="$work/$1.callgrind" RUSTC_WRAPPER="$wrapper" cargo check -q)
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/$1.callgrind"
}
