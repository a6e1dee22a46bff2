#!/usr/bin/env bash
# Compile time of a crate of 200 tools (`#[derive(Deserialize, ToolArgs)]` + `#[tool]`)
# against the same 200 structs with serde's derive alone. Dependencies are built first and
# shared, then each crate's own compilation is timed (debug build, median of 3).
# Usage: bash tests/bench/compile-time.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/target/compile-bench"
mkdir -p "$work"
export CARGO_TARGET_DIR="$work/target"

write_crate() { # $1 = name, $2 = "tools" or "serde"
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
serde = { version = "1", features = ["derive"] }
tool-core = { path = "$root/tool-core" }
TOML
    {
        echo "#![allow(dead_code)]"
        echo "use serde::Deserialize;"
        for i in $(seq -w 0 199); do
            if [ "$2" = tools ]; then
                echo "#[derive(Deserialize, tool_core::ToolArgs)]"
            else
                echo "#[derive(Deserialize)]"
            fi
            cat <<RS
pub struct Args$i {
    /// A name.
    $( [ "$2" = tools ] && echo '#[param(min_length = 1, max_length = 64)]' )
    pub name: String,
    $( [ "$2" = tools ] && echo '#[param(minimum = 0, maximum = 1000)]' )
    pub count: u32,
    pub flag: Option<bool>,
    pub tags: Vec<String>,
}
RS
            if [ "$2" = tools ]; then
                echo "/// Tool number $i."
                echo "#[tool_core::tool]"
            fi
            echo "pub fn tool_$i(args: Args$i) -> String { args.name }"
        done
    } > "$dir/src/lib.rs"
}

write_crate with_tools tools
write_crate serde_only serde

time_build() { # prints seconds for rebuilding crate $1 alone
    local dir="$work/$1"
    (cd "$dir" && cargo build -q) # dependencies, once
    local times=()
    for _ in 1 2 3; do
        touch "$dir/src/lib.rs"
        local start end
        start=$(date +%s.%N)
        (cd "$dir" && cargo build -q)
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc)")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n 2p
}

tools=$(time_build with_tools)
serde=$(time_build serde_only)
echo "200 tools (serde + ToolArgs + #[tool]): ${tools}s"
echo "200 structs (serde derive only):         ${serde}s"
echo "ratio: $(echo "scale=2; $tools / $serde" | bc)"
