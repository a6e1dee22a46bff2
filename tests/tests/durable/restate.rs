//! The processes of a durable test: a Restate server and the order-desk service of
//! `examples/durable.rs`, each on free 127.0.0.1 ports, killed when dropped; and the HTTP
//! calls a client makes to Restate's ingress and admin API.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::processes::{free_port, kill, wait_for};

/// A Restate server with its own data directory, and the order desk registered with it.
pub struct Restate {
    server: Child,
    service: Option<Child>,
    pub ingress: String,
    admin: String,
    service_port: u16,
    /// The files of this test: Restate's data, the ledger, the hold.
    pub dir: PathBuf,
    http: reqwest::Client,
}

impl Restate {
    /// Starts Restate and the service, and registers the service.
    pub async fn start(name: &str) -> Restate {
        let dir = std::env::temp_dir().join(format!("tool-core-durable-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (admin, ingress, fabric) = (free_port(), free_port(), free_port());
        let binary = std::env::var("RESTATE_SERVER").unwrap_or_else(|_| "restate-server".to_owned());
        let log = std::fs::File::create(dir.join("restate.log")).unwrap();
        let server = Command::new(binary)
            .args(["--no-logo", "--listen-mode", "tcp", "--default-num-partitions", "1", "--base-dir"])
            .arg(dir.join("restate"))
            .env("RESTATE_ADMIN__BIND_ADDRESS", format!("127.0.0.1:{admin}"))
            .env("RESTATE_INGRESS__BIND_ADDRESS", format!("127.0.0.1:{ingress}"))
            .env("RESTATE_BIND_ADDRESS", format!("127.0.0.1:{fabric}"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("restate-server runs (bash tests/durable/run.sh installs it)");
        let mut restate = Restate {
            server,
            service: None,
            ingress: format!("http://127.0.0.1:{ingress}"),
            admin: format!("http://127.0.0.1:{admin}"),
            service_port: free_port(),
            dir,
            http: reqwest::Client::new(),
        };
        wait_for(admin, "Restate's admin API");
        wait_for(ingress, "Restate's ingress");
        restate.start_service();
        let uri = format!("http://127.0.0.1:{}", restate.service_port);
        let registered =
            restate.post(&format!("{}/deployments", restate.admin), &serde_json::json!({ "uri": uri })).await;
        assert!(registered.0.is_success(), "registering the service: {registered:?}");
        restate
    }

    pub fn ledger_path(&self) -> PathBuf {
        self.dir.join("ledger")
    }

    pub fn hold_path(&self) -> PathBuf {
        self.dir.join("hold")
    }

    /// How many lines of the ledger are `line`.
    pub fn ledger_count(&self, line: &str) -> usize {
        std::fs::read_to_string(self.ledger_path()).unwrap_or_default().lines().filter(|l| *l == line).count()
    }

    /// Starts the service (again), on the same port.
    pub fn start_service(&mut self) {
        let binary = std::env::var("DURABLE_BIN").expect("DURABLE_BIN names the example (bash tests/durable/run.sh)");
        let log = std::fs::OpenOptions::new().create(true).append(true).open(self.dir.join("service.log")).unwrap();
        let child = Command::new(binary)
            .env("DURABLE_ADDR", format!("127.0.0.1:{}", self.service_port))
            .env("DURABLE_LEDGER", self.ledger_path())
            .env("DURABLE_HOLD", self.hold_path())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("the durable example runs");
        self.service = Some(child);
        wait_for(self.service_port, "the order desk");
    }

    /// Kills the service with SIGKILL: no shutdown, no goodbye to Restate.
    pub fn kill_service(&mut self) {
        if let Some(mut child) = self.service.take() {
            kill(&mut child);
        }
    }

    /// Waits until `check` holds: at most 1,500 tries 20 ms apart (a hang detector).
    pub async fn until(&self, what: &str, mut check: impl FnMut(&Restate) -> bool) {
        for _ in 0..1500 {
            if check(self) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("{what} did not happen in 1,500 tries");
    }

    /// Waits until the journal holds the result of the step named `step`: at most 1,500
    /// tries 20 ms apart.
    pub async fn until_journaled(&self, step: &str) {
        for _ in 0..1500 {
            if self.journaled(step).await {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("step {step:?} was not journaled in 1,500 tries");
    }

    /// Whether the journal holds the result of the step named `step` (Restate's admin SQL on
    /// `sys_journal`: the step's `Run` command, then the notification of its completion id).
    pub async fn journaled(&self, step: &str) -> bool {
        let query = serde_json::json!({"query": "SELECT entry_type, name, entry_lite_json FROM sys_journal"});
        let request = self.http.post(format!("{}/query", self.admin)).header("accept", "application/json");
        let response = request.json(&query).send().await.expect("Restate's admin API answers");
        let status = response.status();
        let body: Value = response.json().await.expect("the journal as JSON");
        assert!(status.is_success(), "reading the journal: {status} {body}");
        let rows: Vec<Value> = body["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|row| serde_json::from_str(row["entry_lite_json"].as_str().unwrap_or("null")).unwrap())
            .collect();
        let command = rows.iter().find_map(|entry| {
            let run = &entry["Command"]["Run"];
            (run["name"] == step).then(|| run["completion_id"].clone())
        });
        command.is_some_and(|id| rows.iter().any(|entry| entry["Notification"]["id"]["CompletionId"] == id))
    }

    /// Starts a run of the workflow `key` without waiting for it; its invocation id.
    pub async fn send(&self, key: &str, request: &str) -> String {
        let url = format!("{}/OrderDesk/{key}/run/send", self.ingress);
        let (status, body) = self.post(&url, &Value::String(request.to_owned())).await;
        assert!(status.is_success(), "starting run {key}: {status} {body}");
        body["invocationId"].as_str().expect("an invocation id").to_owned()
    }

    /// The run's output, once it has ended (a bounded wait): the status and the body.
    pub async fn output(&self, key: &str) -> (reqwest::StatusCode, Value) {
        let url = format!("{}/restate/workflow/OrderDesk/{key}/attach", self.ingress);
        let request = self.http.get(url).timeout(Duration::from_mins(1)).send();
        let response = request.await.expect("the run answers within 60 s");
        let status = response.status();
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// The call the run `key` waits on for approval, once there is one.
    pub async fn pending(&self, key: &str) -> Value {
        self.waiting(key, "pending").await
    }

    /// What the handler `handler` says the run `key` waits on, once it waits: at most 600
    /// tries 50 ms apart.
    pub async fn waiting(&self, key: &str, handler: &str) -> Value {
        let url = format!("{}/OrderDesk/{key}/{handler}", self.ingress);
        let mut last = None;
        for _ in 0..600 {
            let (status, body) = self.post(&url, &Value::Null).await;
            if status.is_success() && !body.is_null() {
                return body;
            }
            last = Some((status, body));
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no call of {key} waited ({handler}) in 600 tries: {last:?}");
    }

    /// Hands a decision to the run `key`.
    pub async fn decide(&self, key: &str, decision: &Value) -> (reqwest::StatusCode, Value) {
        self.post(&format!("{}/OrderDesk/{key}/decide", self.ingress), decision).await
    }

    /// Cancels an invocation through the admin API.
    pub async fn cancel(&self, invocation: &str) {
        let url = format!("{}/invocations/{invocation}/cancel", self.admin);
        let response = self.http.patch(url).send().await.unwrap();
        assert!(response.status().is_success(), "cancelling {invocation}: {}", response.status());
    }

    /// A POST with a JSON body (none for `null`): the status and the body.
    pub async fn post(&self, url: &str, body: &Value) -> (reqwest::StatusCode, Value) {
        let mut request = self.http.post(url).timeout(Duration::from_secs(30));
        if !body.is_null() {
            request = request.header("content-type", "application/json").body(body.to_string());
        }
        let response = request.send().await.unwrap_or_else(|error| panic!("POST {url}: {error}"));
        let status = response.status();
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// Removes a file, if it is there.
    pub fn remove(path: &Path) {
        let _ = std::fs::remove_file(path);
    }
}

impl Drop for Restate {
    fn drop(&mut self) {
        self.kill_service();
        kill(&mut self.server);
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
