# Sourced by the build benchmarks: `write_manifest CRATE` writes `$work/CRATE/Cargo.toml`, a
# crate of its own workspace on serde, serde_json and this checkout's tool-core (`$root`),
# whose release build is stripped, and makes its `src/`.
write_manifest() {
    mkdir -p "$work/$1/src"
    cat > "$work/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
serde = { version = "1", features = ["derive"] }
serde_json = "1"
tool-core = { path = "$root/tool-core" }

[profile.release]
strip = true
TOML
}
