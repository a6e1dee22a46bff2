# Sourced by the scripts that start a server for a test: `free_port` prints a TCP port free on
# 127.0.0.1 now, and `wait_port PORT` waits (10 s at most) until something listens on it.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_port() {
    for _ in $(seq 1 100); do
        if (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "nothing listens on 127.0.0.1:$1 after 10 s" >&2
    return 1
}
