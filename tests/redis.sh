# Sourced by the scripts that need Redis (the scale tests, the replicas benchmark): installs
# redis-server from Debian's packages when it is missing (retrying failed downloads), stops the
# system Redis the package starts (the tests start their own on free ports), and defines
# `redis_server`, its path. Expects `root`.
. "$root/tests/retry.sh"
if ! command -v redis-server > /dev/null; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    retry $sudo apt-get update -q
    retry $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q redis-server
    $sudo systemctl stop redis-server 2> /dev/null || $sudo service redis-server stop 2> /dev/null || true
fi
redis_server=$(command -v redis-server)
