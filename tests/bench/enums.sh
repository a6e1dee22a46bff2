#!/usr/bin/env bash
# The front end on N = 50 enums with data, counted in instructions of `cargo check` (callgrind,
# as `front-end.sh` counts): `#[derive(ToolArgs)]` alone (which writes the `Deserialize`),
# the same beside serde's derive (`#[tool_args(serde)]`), and serde's derive alone. The
# enums cycle through serde's four taggings (external, internal, adjacent, untagged), each
# with a unit variant (not untagged), a newtype and a struct variant; every crate's `main`
# decodes each enum from JSON, so that each `Deserialize` impl is used alike.
#
#   bash tests/bench/enums.sh     # needs valgrind; about 3 minutes
#
# Not part of CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/target/compile-bench"
n=50
mkdir -p "$work"
# shellcheck source=tests/bench/bench-crate.sh
source "$root/tests/bench/bench-crate.sh"

write_crate() { # $1 = crate name, $2 = "ours", "two" or "serde"
    local dir="$work/$1" kind=$2
    write_manifest "$1"
    local derive='#[derive(tool_core::ToolArgs)]'
    [ "$kind" = two ] && derive=$'#[derive(serde::Deserialize, tool_core::ToolArgs)]\n#[tool_args(serde)]'
    [ "$kind" = serde ] && derive='#[derive(serde::Deserialize)]'
    {
        echo "#![allow(dead_code)]"
        for i in $(seq 0 $((n - 1))); do
            local tagging='' unit='    /// Stop.
    Stop,'
            case $((i % 4)) in
                1) tagging='#[serde(tag = "kind")]' ;;
                2) tagging='#[serde(tag = "kind", content = "data")]' ;;
                3) tagging='#[serde(untagged)]'; unit='' ;;
            esac
            cat <<RS
$derive
pub struct Inner$i {
    /// A label.
    pub label: String,
}
/// Enum number $i.
$derive
$tagging
pub enum Op$i {
$unit
    /// Wrap.
    Wrap(Inner$i),
    /// Move.
    Move {
        /// Across.
        x: i32,
        /// Up.
        y: Option<i32>,
        /// A note.
        note: String,
    },
}
RS
        done
        echo 'fn main() {'
        echo '    let json = std::env::args().nth(1).unwrap_or_default();'
        for i in $(seq 0 $((n - 1))); do
            echo "    println!(\"{}\", serde_json::from_str::<Op$i>(&json).is_ok());"
        done
        echo '}'
    } > "$dir/src/main.rs"
}

write_crate enums_serde_$n serde
write_crate enums_ours_$n ours
write_crate enums_two_$n two
# shellcheck source=tests/bench/count-check.sh
source "$root/tests/bench/count-check.sh"
serde=$(count enums_serde_$n)
ours=$(count enums_ours_$n)
two=$(count enums_two_$n)
echo "cargo check, $n enums with data, instructions: serde-only $serde, ToolArgs alone $ours, both derives $two"
awk -v o="$ours" -v w="$two" -v s="$serde" -v n="$n" 'BEGIN {
    printf "ToolArgs alone: %.3f of serde-only (%.1f M per enum beyond it); both derives: %.3f (%.1f M per enum)\n",
        o / s, (o - s) / n / 1e6, w / s, (w - s) / n / 1e6 }'
