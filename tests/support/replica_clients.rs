//! The client side of the fault tests: for one bearer token, two rmcp
//! clients per replica (a 2026-07-28 client that takes tasks, which gets
//! the tasks extension's; a 2025-11-25 client, whose tasks are custom
//! requests), and the requests spread over the replicas that live, in
//! turn, with no proxy between. Every answer about a task is JSON, in
//! either form: `taskId`, `status`, `statusMessage` (and the extension's
//! `result` or `error`).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities,
    ClientConfig, ClientRequest, CustomRequest, ErrorCode, GetTaskParams, Implementation,
    ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{Value, json};

/// The longest any one request may take, unless the server is broken.
pub(crate) const PATIENCE: Duration = Duration::from_secs(30);

pub(crate) type Client = RunningService<RoleClient, ClientConfig>;

/// A protocol error: its code and message.
pub(crate) type Refusal = (ErrorCode, String);

/// Which form of tasks a request speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// The `io.modelcontextprotocol/tasks` extension, of 2026-07-28.
    Extension,
    /// 2025-11-25's tasks, as custom requests.
    Spec2025,
}

/// One token's clients of every replica.
pub(crate) struct Clients {
    extension: Vec<Client>,
    spec: Vec<Client>,
    alive: Vec<AtomicBool>,
    next: AtomicUsize,
    served: Vec<AtomicUsize>,
}

fn transport(url: &str, token: &str) -> StreamableHttpClientTransport<reqwest::Client> {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token);
    StreamableHttpClientTransport::from_config(config)
}

impl Clients {
    /// Connects both clients to each of `urls` with `token`.
    pub(crate) async fn connect(urls: &[String], token: &str) -> Self {
        let mut extension = Vec::new();
        let mut spec = Vec::new();
        for url in urls {
            let takes_tasks = ClientConfig::new(
                ClientCapabilities::builder().enable_tasks().build(),
                Implementation::new("replicas-test-2026", "1.0.0"),
            );
            let discover = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            let client = takes_tasks
                .serve_with_lifecycle(transport(url, token), discover)
                .await
                .unwrap_or_else(|error| panic!("{url}: not discovered: {error}"));
            let version = &client.peer_info().expect("discovered").protocol_version;
            assert_eq!(*version, ProtocolVersion::V_2026_07_28);
            extension.push(client);
            let client = ClientConfig::default()
                .serve(transport(url, token))
                .await
                .unwrap_or_else(|error| panic!("{url}: not initialized: {error}"));
            spec.push(client);
        }
        Clients {
            alive: urls.iter().map(|_| AtomicBool::new(true)).collect(),
            served: urls.iter().map(|_| AtomicUsize::new(0)).collect(),
            next: AtomicUsize::new(0),
            extension,
            spec,
        }
    }

    /// The next replica that lives, in turn.
    pub(crate) fn next(&self) -> usize {
        let count = self.alive.len();
        for _ in 0..count {
            let k = self.next.fetch_add(1, Ordering::SeqCst) % count;
            if self.alive[k].load(Ordering::SeqCst) {
                return k;
            }
        }
        panic!("no replica lives")
    }

    /// A replica that lives, other than `k`.
    pub(crate) fn other_than(&self, k: usize) -> usize {
        for _ in 0..self.alive.len() {
            let other = self.next();
            if other != k {
                return other;
            }
        }
        panic!("no replica lives but {k}")
    }

    /// Sends nothing more to `k`.
    pub(crate) fn mark_dead(&self, k: usize) {
        self.alive[k].store(false, Ordering::SeqCst);
    }

    /// The requests each replica was sent.
    pub(crate) fn served(&self) -> Vec<usize> {
        self.served
            .iter()
            .map(|count| count.load(Ordering::SeqCst))
            .collect()
    }

    fn client(&self, form: Form, k: usize) -> &Client {
        assert!(self.alive[k].load(Ordering::SeqCst), "replica {k} is dead");
        self.served[k].fetch_add(1, Ordering::SeqCst);
        match form {
            Form::Extension => &self.extension[k],
            Form::Spec2025 => &self.spec[k],
        }
    }

    /// A request of 2025-11-25's tasks (a custom request) to replica `k`.
    pub(crate) async fn request_2025(
        &self,
        k: usize,
        method: &str,
        params: Value,
    ) -> Result<Value, Refusal> {
        let client = self.client(Form::Spec2025, k);
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
        let answer = bounded(k, method, client.send_request(request)).await;
        answer.map(|result| serde_json::to_value(result).expect("JSON"))
    }

    /// Starts a task of `tool` on `k`, in `form` (a 2025-11-25 task asks
    /// `ttl_ms`), and gives its id.
    pub(crate) async fn start(
        &self,
        form: Form,
        k: usize,
        tool: &str,
        arguments: Value,
        ttl_ms: u64,
    ) -> String {
        let started = self.try_start(form, k, tool, arguments, ttl_ms).await;
        started.unwrap_or_else(|error| panic!("{tool} on replica {k}: no task: {error}"))
    }

    /// [`Clients::start`], or what the server answered instead of a task:
    /// the text of a result, or the message of an error.
    pub(crate) async fn try_start(
        &self,
        form: Form,
        k: usize,
        tool: &str,
        arguments: Value,
        ttl_ms: u64,
    ) -> Result<String, String> {
        match form {
            Form::Extension => {
                let client = self.client(form, k);
                let answer = bounded(k, tool, client.call_tool_once(params(tool, arguments))).await;
                match answer {
                    Ok(CallToolResponse::Task(created)) => Ok(created.task.task_id),
                    Ok(CallToolResponse::Complete(result)) => Err(text(&result).to_owned()),
                    Ok(other) => panic!("{tool} on replica {k}: {other:?}"),
                    Err((_, message)) => Err(message),
                }
            }
            Form::Spec2025 => {
                let params = json!({"name": tool, "arguments": arguments, "task": {"ttl": ttl_ms}});
                let created = self.request_2025(k, "tools/call", params).await;
                let created = created.map_err(|(_, message)| message)?;
                assert_eq!(created["task"]["status"], "working", "{created}");
                Ok(created["task"]["taskId"]
                    .as_str()
                    .expect("an id")
                    .to_owned())
            }
        }
    }

    /// `tasks/get` on `k`, in `form`.
    pub(crate) async fn get(&self, form: Form, k: usize, task_id: &str) -> Result<Value, Refusal> {
        match form {
            Form::Extension => {
                let client = self.client(form, k);
                let got = client.get_task(GetTaskParams::new(task_id));
                let got = bounded(k, "tasks/get", got).await?;
                Ok(serde_json::to_value(got).expect("JSON"))
            }
            Form::Spec2025 => {
                self.request_2025(k, "tasks/get", json!({"taskId": task_id}))
                    .await
            }
        }
    }

    /// `tasks/cancel` on `k`, in `form`: the extension's answer is an ack
    /// (`null`), 2025-11-25's the task once it has ended.
    pub(crate) async fn cancel(
        &self,
        form: Form,
        k: usize,
        task_id: &str,
    ) -> Result<Value, Refusal> {
        match form {
            Form::Extension => {
                let client = self.client(form, k);
                let cancel = client.cancel_task(CancelTaskParams::new(task_id));
                bounded(k, "tasks/cancel", cancel)
                    .await
                    .map(|()| Value::Null)
            }
            Form::Spec2025 => {
                self.request_2025(k, "tasks/cancel", json!({"taskId": task_id}))
                    .await
            }
        }
    }

    /// `tasks/get` on `k` until `done` holds of the task, for at most
    /// `within`; the task then.
    pub(crate) async fn poll(
        &self,
        form: Form,
        k: usize,
        task_id: &str,
        within: Duration,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        let until = Instant::now() + within;
        loop {
            let task = self
                .get(form, k, task_id)
                .await
                .unwrap_or_else(|error| panic!("task {task_id} on replica {k}: {error:?}"));
            if done(&task) {
                return task;
            }
            assert!(
                Instant::now() < until,
                "task {task_id} on replica {k} is still {task} after {within:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// `tools/call` on `k` by a client that takes no tasks: the call's
    /// result, waited for.
    pub(crate) async fn call(&self, k: usize, tool: &str, arguments: Value) -> CallToolResult {
        let client = self.client(Form::Spec2025, k);
        let result = bounded(k, tool, client.call_tool(params(tool, arguments))).await;
        result.unwrap_or_else(|error| panic!("{tool} on replica {k}: {error:?}"))
    }
}

/// `future`, answered within [`PATIENCE`]; a protocol error as a
/// [`Refusal`], anything else a failure of the test.
async fn bounded<T>(
    k: usize,
    what: &str,
    future: impl Future<Output = Result<T, ServiceError>>,
) -> Result<T, Refusal> {
    match tokio::time::timeout(PATIENCE, future).await {
        Err(_) => panic!("{what} on replica {k}: no answer in {PATIENCE:?}"),
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(ServiceError::McpError(error))) => Err((error.code, error.message.into_owned())),
        Ok(Err(other)) => panic!("{what} on replica {k}: not a protocol error: {other}"),
    }
}

/// `tools/call`'s params.
pub(crate) fn params(name: &str, arguments: Value) -> CallToolRequestParams {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    CallToolRequestParams::new(name.to_owned()).with_arguments(arguments)
}

/// The text of a result's first block.
pub(crate) fn text(result: &CallToolResult) -> &str {
    &result.content[0].as_text().expect("a text block").text
}

/// A task's `status`.
pub(crate) fn status(task: &Value) -> &str {
    task["status"].as_str().unwrap_or_default()
}

/// A task's `statusMessage`.
pub(crate) fn message(task: &Value) -> &str {
    task["statusMessage"].as_str().unwrap_or_default()
}
