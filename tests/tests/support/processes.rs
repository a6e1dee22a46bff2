//! The processes a test starts itself (a `redis-server`, a Restate server, an example's
//! binary): a free 127.0.0.1 port for each, a bounded wait for it to listen, and a kill.

use std::net::TcpStream;
use std::process::Child;
use std::time::Duration;

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Waits until something listens on `port`: at most 600 tries 50 ms apart, so that a
/// process that never listens fails the test instead of hanging it.
pub fn wait_for(port: u16, what: &str) {
    for _ in 0..600 {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} did not listen on {port} in 600 tries");
}

/// SIGKILL, then reaped.
pub fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}
