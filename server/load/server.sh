# Sourced by the load scripts: starts the release build of the server (`cargo build --release -p
# wgsweep-server --bins`) on the database $1 with its limits lifted, in a temporary directory $work that
# goes with it when the script ends, and sets $address.
start_server() {
    work=$(mktemp -d)
    mkdir -p "$work/dist" && echo '<!doctype html>' > "$work/dist/index.html"
    target/release/wgsweep-server --listen 127.0.0.1:0 --publishes-per-minute 10000000 \
        --reads-per-minute 10000000 --dist "$work/dist" --database "$1" > "$work/server.txt" 2>&1 &
    server=$!
    trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
    for _ in $(seq 3000); do grep -q http "$work/server.txt" && break; sleep 0.1; done
    address=$(grep -o 'http://[^/]*' "$work/server.txt")
}
