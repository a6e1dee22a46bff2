//! The processes of a scale test: a `redis-server`, replicas of `examples/replica.rs`, and
//! the balancer in front, each on a free 127.0.0.1 port, killed when dropped.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use crate::balancer::{self, Balancer};
use crate::processes::{free_port, kill, wait_for};

/// A `redis-server` without persistence: a restart forgets everything, the worst case.
pub struct Redis {
    port: u16,
    child: Option<Child>,
}

impl Redis {
    pub fn start() -> Redis {
        let mut redis = Redis { port: free_port(), child: None };
        redis.restart();
        redis
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn restart(&mut self) {
        self.stop();
        let child = Command::new(std::env::var("REDIS_SERVER").unwrap_or_else(|_| "redis-server".to_owned()))
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server runs (bash tests/scale/run.sh installs it)");
        self.child = Some(child);
        wait_for(self.port, "redis-server");
    }

    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            kill(&mut child);
        }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One replica process.
struct Replica {
    child: Child,
}

impl Drop for Replica {
    fn drop(&mut self) {
        kill(&mut self.child);
    }
}

pub struct Cluster {
    pub redis: Redis,
    replicas: Vec<Option<Replica>>,
    pub balancer: Balancer,
}

fn replica_binary() -> PathBuf {
    std::env::var_os("REPLICA_BIN")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/debug/replica"), PathBuf::from)
}

impl Cluster {
    /// Redis, `count` replicas (named 0, 1, ..; task leases of 2 s) and the balancer.
    pub async fn start(count: usize) -> Cluster {
        let redis = Redis::start();
        let mut replicas = Vec::new();
        let mut upstreams = Vec::new();
        for index in 0..count {
            let port = free_port();
            let child = Command::new(replica_binary())
                .arg(format!("127.0.0.1:{port}"))
                .env("REDIS_URL", redis.url())
                .env("REPLICA", index.to_string())
                .env("TASK_LEASE_MS", "2000")
                .stdout(Stdio::null())
                .spawn()
                .expect("the replica binary runs (cargo build -p tool-examples --bin replica)");
            replicas.push(Some(Replica { child }));
            upstreams.push(format!("http://127.0.0.1:{port}"));
            wait_for(port, "a replica");
        }
        let balancer = balancer::start(upstreams).await;
        Cluster { redis, replicas, balancer }
    }

    /// Kills replica `index` at once (SIGKILL: no graceful shutdown).
    pub fn kill_replica(&mut self, index: usize) {
        drop(self.replicas[index].take());
    }
}
