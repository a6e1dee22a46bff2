# Sourced by the scripts that need Restate (the durable tests, their benchmark): installs the
# Restate server from npm (@restatedev/restate-server, whose linux-x64 package is the server's
# own binary) into target/restate once, retrying a failed download, and defines
# `restate_server`, its path. Expects `root`.
. "$root/tests/retry.sh"
restate_version=1.7.12
restate_home=$root/target/restate
restate_server=$restate_home/node_modules/@restatedev/restate-server-linux-x64/bin/restate-server
if [ ! -x "$restate_server" ]; then
    mkdir -p "$restate_home"
    retry npm install --prefix "$restate_home" --no-audit --no-fund --no-save --ignore-scripts \
        "@restatedev/restate-server@$restate_version"
fi
