//! The processes a test starts itself (a `redis-server`, a Restate server, an example's
//! binary): a free 127.0.0.1 port for each, a bounded wait for it to listen, and a kill.

use std::net::TcpStream;
use std::process::Child;
use std::time::{Duration, Instant};

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Waits (at most 30 s, a hang detector) until something listens on `port`.
pub fn wait_for(port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "{what} did not listen on {port} within 30 s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// SIGKILL, then reaped.
pub fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}
