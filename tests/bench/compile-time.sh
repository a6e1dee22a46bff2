#!/usr/bin/env bash
# Build cost of N tools, like for like: a binary crate of N tools made with our macros
# (`#[derive(ToolArgs)]` + `#[tool]`, dispatched by `Registry::call`) against the
# same N structs with serde's derive alone and a hand-written `match` that deserializes each
# (the least any dispatcher does). Dependencies are built once and shared; each crate is then
# built from clean (its own artifacts removed, no incremental cache), debug and release, and
# the stripped release binary is measured. N = 50 and N = 200 give the marginal cost per tool.
#
#   bash tests/bench/compile-time.sh            # median of 3 builds per figure
#   RUNS=1 bash tests/bench/compile-time.sh     # quicker, noisier
#
# Not part of CI. Each struct: a string, an integer range, a float range, a bool, an optional
# string, a Vec<String>, a unit enum and a nested struct.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/target/compile-bench"
runs=${RUNS:-3}
mkdir -p "$work"
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0
# shellcheck source=tests/bench/bench-crate.sh
source "$root/tests/bench/bench-crate.sh"

write_crate() { # $1 = crate name, $2 = "tools" or "serde", $3 = N
    local dir="$work/$1" kind=$2 n=$3
    write_manifest "$1"
    {
        echo "#![allow(dead_code)]"
        # `ToolArgs` alone (`two`: beside serde's `Deserialize`, which then decodes the type).
        local derive='#[derive(Deserialize)]'
        [ "$kind" != serde ] && derive='#[derive(tool_core::ToolArgs)]'
        [ "$kind" = two ] && derive=$'#[derive(Deserialize, tool_core::ToolArgs)]\n#[tool_args(serde)]'
        [ "$kind" = serde ] || [ "$kind" = two ] && echo "use serde::Deserialize;"
        local last=$((n - 1))
        for i in $(seq 0 "$last" | xargs printf "%03d "); do
            local p_len='' p_range='' p_ratio=''
            if [ "$kind" != serde ]; then
                p_len='#[param(min_length = 1, max_length = 64)]'
                p_range='#[param(minimum = 1, maximum = 100)]'
                p_ratio='#[param(minimum = 0.0, maximum = 1.0)]'
            fi
            cat <<RS
$derive
#[serde(rename_all = "lowercase")]
pub enum Mode$i { Fast, Slow }
$derive
pub struct Inner$i {
    /// A label.
    pub label: String,
}
RS
            if [ "$kind" = plain ] || [ "$kind" = methods ]; then # the same tool with plain parameters
                local receiver=''
                if [ "$kind" = methods ]; then # as the method of a `#[tools]` block of its own
                    printf 'pub struct Server%s;\n#[tool_core::tools]\nimpl Server%s {\n' "$i" "$i"
                    receiver='&self,'
                fi
                cat <<RS
/// Tool number $i.
///
/// # Arguments
/// * \`name\` - A name.
/// * \`count\` - How many.
/// * \`ratio\` - A ratio.
/// * \`flag\` - A flag.
/// * \`note\` - A note.
/// * \`tags\` - Tags.
/// * \`mode\` - The mode.
/// * \`inner\` - A nested struct.
#[tool_core::tool]
pub fn tool_$i(
    $receiver
    $p_len name: String,
    $p_range count: u32,
    $p_ratio ratio: f64,
    flag: bool,
    note: Option<String>,
    tags: Vec<String>,
    mode: Mode$i,
    inner: Inner$i,
) -> String {
    let _ = (count, ratio, flag, note, tags, mode, inner);
    name
}
RS
                [ "$kind" = methods ] && echo "}"
                continue
            fi
            cat <<RS
$derive
pub struct Args$i {
    /// A name.
    $p_len
    pub name: String,
    /// How many.
    $p_range
    pub count: u32,
    /// A ratio.
    $p_ratio
    pub ratio: f64,
    /// A flag.
    pub flag: bool,
    /// A note.
    pub note: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// The mode.
    pub mode: Mode$i,
    /// A nested struct.
    pub inner: Inner$i,
}
RS
            [ "$kind" = tools ] || [ "$kind" = two ] && { echo "/// Tool number $i."; echo "#[tool_core::tool]"; }
            # Every field used, as the plain-parameter form's body uses every parameter.
            echo "pub fn tool_$i(args: Args$i) -> String {"
            echo "    let _ = (args.count, args.ratio, args.flag, args.note, args.tags, args.mode, args.inner);"
            echo "    args.name"
            echo "}"
        done
        if [ "$kind" = methods ]; then
            echo 'fn main() {'
            echo '    let mut registry = tool_core::Registry::new();'
            for i in $(seq 0 "$last" | xargs printf "%03d "); do
                echo "    registry.add_all(Server$i).expect(\"unique names\");"
            done
            cat <<'RS'
    let mut args = std::env::args().skip(1);
    let (name, json) = (args.next().unwrap_or_default(), args.next().unwrap_or_default());
    match registry.call(&name, json.as_str()) {
        Ok(output) => println!("{}", output.to_text()),
        Err(error) => println!("{error}"),
    }
}
RS
        elif [ "$kind" != serde ]; then
            cat <<'RS'
fn main() {
    let mut args = std::env::args().skip(1);
    let (name, json) = (args.next().unwrap_or_default(), args.next().unwrap_or_default());
    let registry = tool_core::Registry::collect().expect("unique names");
    match registry.call(&name, json.as_str()) {
        Ok(output) => println!("{}", output.to_text()),
        Err(error) => println!("{error}"),
    }
}
RS
        else
            echo 'fn main() {'
            echo '    let mut args = std::env::args().skip(1);'
            echo '    let (name, json) = (args.next().unwrap_or_default(), args.next().unwrap_or_default());'
            echo '    let output = match name.as_str() {'
            for i in $(seq 0 "$last" | xargs printf "%03d "); do
                echo "        \"tool_$i\" => serde_json::from_str::<Args$i>(&json).map(tool_$i).map_err(|e| e.to_string()),"
            done
            echo '        _ => Err(format!("unknown tool {name}")),'
            echo '    };'
            echo '    match output { Ok(text) | Err(text) => println!("{text}") }'
            echo '}'
        fi
    } > "$dir/src/main.rs"
}

# Seconds to build crate $1 alone from clean in profile $2 (dev or release), once.
build_once() {
    local dir="$work/$1" flag=''
    [ "$2" = release ] && flag=--release
    (cd "$dir" && cargo clean -q -p "$1" $flag)
    local start end
    start=$(date +%s.%N)
    (cd "$dir" && cargo build -q $flag)
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

# Medians of `runs` builds of tools_$1 and serde_$1 in profile $2, alternating the two so
# that a change in the machine's load weighs on both alike.
build_pair() {
    local n=$1 profile=$2 flag='' tools=() serde=()
    [ "$profile" = release ] && flag=--release
    (cd "$work/tools_$n" && cargo build -q $flag) # dependencies, once
    (cd "$work/serde_$n" && cargo build -q $flag)
    for _ in $(seq 1 "$runs"); do
        tools+=("$(build_once "tools_$n" "$profile")")
        serde+=("$(build_once "serde_$n" "$profile")")
    done
    result[tools,$n,$profile]=$(median "${tools[@]}")
    result[serde,$n,$profile]=$(median "${serde[@]}")
}

binary_size() { stat -c %s "$work/target/release/$1"; }

if [ -n "${ONLY_WRITE:-}" ]; then # the crates alone, for `front-end.sh`
    for n in 50 200; do write_crate "tools_$n" tools "$n"; write_crate "serde_$n" serde "$n"; done
    write_crate plain_50 plain 50
    write_crate methods_50 methods 50
    write_crate two_50 two 50
    exit 0
fi

declare -A result
for n in 50 200; do
    write_crate "tools_$n" tools "$n"
    write_crate "serde_$n" serde "$n"
    build_pair "$n" debug
    build_pair "$n" release
    for kind in tools serde; do
        result[$kind,$n,size]=$(binary_size "${kind}_$n")
    done
    # The binaries must work: a valid call, and (ours) a refused one.
    "$work/target/release/tools_$n" tool_001 '{"name":"ok","count":5,"ratio":0.5,"flag":true,"note":null,"tags":[],"mode":"fast","inner":{"label":"x"}}' | grep -qx ok
    "$work/target/release/serde_$n" tool_001 '{"name":"ok","count":5,"ratio":0.5,"flag":true,"note":null,"tags":[],"mode":"fast","inner":{"label":"x"}}' | grep -qx ok
done

ratio() { printf "%.2f" "$(echo "scale=4; $1 / $2" | bc)"; }
per_tool() { echo "scale=1; ($1 - $2) * 1000 / 150" | bc; } # ms between N = 50 and N = 200
echo "| $((runs)) run(s), median | serde-only, N=200 | tool-core, N=200 | ratio | per tool, serde-only | per tool, tool-core |"
echo "|---|---|---|---|---|---|"
for profile in debug release; do
    s=${result[serde,200,$profile]} t=${result[tools,200,$profile]}
    echo "| crate-only $profile build | $(printf %.1f "$s") s | $(printf %.1f "$t") s | $(ratio "$t" "$s")× | $(per_tool "$s" "${result[serde,50,$profile]}") ms | $(per_tool "$t" "${result[tools,50,$profile]}") ms |"
done
s=${result[serde,200,size]} t=${result[tools,200,size]}
echo "| stripped release binary | $((s / 1024)) KiB | $((t / 1024)) KiB | $(ratio "$t" "$s")× | $(( (s - result[serde,50,size]) / 150 )) B | $(( (t - result[tools,50,size]) / 150 )) B |"
