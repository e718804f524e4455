//! MCP tasks across real processes: three replicas of one MCP server
//! (this test binary run again, `tests/support/replica.rs`), serving
//! stateless HTTP with bearer tokens, their registries and tasks in one
//! real `redis-server`, and clients whose requests go to any replica.
//! It proves that:
//!
//! - a task started on one replica is read (its progress too), waited for,
//!   listed and cancelled through the others, in both forms of tasks, and
//!   is another token's on none; a cancel stops the run within a second;
//! - a replica killed (SIGKILL) mid-task loses nothing silently: its task
//!   of a tool not marked idempotent fails saying why and never runs
//!   again; one of an idempotent tool runs again once, elsewhere, and
//!   fails saying so if that replica is killed too; none stays working,
//!   none becomes unknown;
//! - Redis killed mid-run and started again empty gives answers that say
//!   so (tasks that cannot be read while it is down; then a waited call's
//!   lost result and tasks the store lost, what waited having waited
//!   through the outage), a plain tool works throughout, new calls and
//!   tasks work again, and no replica stops or panics;
//! - ten thousand calls and tasks spread over the replicas are each
//!   answered exactly once, with their own result, and Redis then goes
//!   back to holding the replicas' leases only.
//!
//! It needs `TOOL_REDIS_SERVER` (a redis-server 7 binary; `scripts/test`
//! installs one). The tests run one at a time: each starts four processes.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::model::ErrorCode;
use serde_json::{Value, json};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

// Each test binary uses its own part of the server's controls.
#[allow(dead_code)]
#[path = "../tool-redis/tests/support/server.rs"]
mod redis_server;
#[path = "support/replica.rs"]
mod replica;
#[path = "support/replica_checks.rs"]
mod replica_checks;
#[path = "support/replica_clients.rs"]
mod replica_clients;
#[path = "support/replicas.rs"]
mod replicas;

use replica::{ALICE, BOB, REPLICA};
use replica_checks::{
    FORMS, NOT_IDEMPOTENT, SO_DID, WITHIN, assert_failed, assert_unknown_to, lost_task, retried,
    started_on,
};
use replica_clients::{Clients, Form, message, status, text};
use replicas::Cluster;

/// The replica's side of the re-executed test binary: nothing unless
/// [`REPLICA`] is set, then a replica until killed.
#[test]
fn replica_process() {
    if let Ok(config) = std::env::var(REPLICA) {
        replica::serve(&config);
    }
}

static SERIAL: Mutex<()> = Mutex::new(());

/// Runs `test` alone, on a runtime of its own.
fn serially(test: impl Future<Output = ()>) {
    let _alone = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(test);
}

#[test]
fn tasks_started_on_one_replica_are_read_cancelled_and_finished_on_the_others() {
    serially(async {
        let mut cluster = Cluster::start(3, None);
        let alice = Clients::connect(&cluster.urls(), ALICE).await;
        let bob = Clients::connect(&cluster.urls(), BOB).await;

        // A task of each form started on each replica.
        let mut started = Vec::new();
        for form in FORMS {
            for k in 0..3 {
                let video = format!("{form:?}-{k}");
                let arguments = json!({"video": video, "ms": 4000});
                let id = alice.start(form, k, "render", arguments, 60_000).await;
                started.push((form, k, video, id));
            }
        }
        for (form, k, _, id) in &started {
            // Its progress, written where it runs, read on the next.
            let task = alice
                .poll(*form, (k + 1) % 3, id, WITHIN, |task| {
                    !message(task).is_empty()
                })
                .await;
            assert_eq!(status(&task), "working", "{task}");
            assert_eq!(message(&task), started_on(*k), "{task}");
        }
        for (.., id) in &started {
            assert_unknown_to(&bob, id).await;
        }
        // Listed on each replica, oldest first, whichever replica started
        // them and in whichever form; bob has none.
        let ids: Vec<&str> = started.iter().map(|(.., id)| id.as_str()).collect();
        for k in 0..3 {
            let listed = alice.request_2025(k, "tasks/list", json!({})).await;
            let listed = listed.expect("listed");
            let listed: Vec<&str> = listed["tasks"]
                .as_array()
                .expect("tasks")
                .iter()
                .map(|task| task["taskId"].as_str().expect("an id"))
                .collect();
            assert_eq!(listed, ids, "replica {k}");
            let none = bob.request_2025(k, "tasks/list", json!({})).await;
            assert_eq!(none, Ok(json!({"tasks": []})), "replica {k}");
        }
        // Finished: read through the third replica.
        for (form, k, video, id) in &started {
            let third = (k + 2) % 3;
            let expected = format!("render {video} on replica-{k}");
            let result = match form {
                Form::Extension => {
                    let task = alice
                        .poll(*form, third, id, WITHIN, |task| status(task) != "working")
                        .await;
                    assert_eq!(status(&task), "completed", "{task}");
                    task["result"].clone()
                }
                Form::Spec2025 => {
                    let waited = alice
                        .request_2025(third, "tasks/result", json!({"taskId": id}))
                        .await
                        .expect("a result");
                    let related = &waited["_meta"]["io.modelcontextprotocol/related-task"];
                    assert_eq!(related["taskId"], id.as_str(), "{waited}");
                    waited
                }
            };
            assert_eq!(result["content"][0]["text"], expected, "{result}");
            assert_eq!(result["isError"], false, "{result}");
        }

        // Cancelled through another replica than the one that runs it.
        for form in FORMS {
            let video = format!("{form:?}-cancelled");
            let arguments = json!({"video": video, "ms": 600_000});
            let id = alice.start(form, 0, "render", arguments, 60_000).await;
            alice
                .poll(form, 1, &id, WITHIN, |task| message(task) == started_on(0))
                .await;
            let asked = Instant::now();
            let answer = alice.cancel(form, 1, &id).await.expect("cancelled");
            if form == Form::Spec2025 {
                assert_eq!(status(&answer), "cancelled", "{answer}");
            }
            let stopped = format!("cancelled render {video} on replica-0");
            let heard = cluster.log.heard(&stopped, WITHIN).await;
            let heard = heard.unwrap_or_else(|| panic!("never heard {stopped:?}"));
            assert!(
                heard.duration_since(asked) < Duration::from_secs(1),
                "the run saw its cancel {:?} after it was asked",
                heard.duration_since(asked)
            );
            let task = alice
                .poll(form, 2, &id, WITHIN, |task| status(task) != "working")
                .await;
            assert_eq!(status(&task), "cancelled", "{task}");
            assert_eq!(message(&task), "cancelled", "{task}");
            assert_unknown_to(&bob, &id).await;
        }
        cluster.assert_all_run_and_none_panicked();
    });
}

#[test]
fn a_killed_replica_s_tasks_end_or_run_again_once() {
    serially(async {
        let mut cluster = Cluster::start(3, None);
        let alice = Clients::connect(&cluster.urls(), ALICE).await;

        // On replica 0: a render (not idempotent) and two thumbnails
        // (idempotent), one of each form; the second takes an hour, so that
        // it still runs again when the replica that runs it again is killed.
        let hour = 3_600_000;
        let render = json!({"video": "doomed", "ms": hour});
        let render = alice.start(Form::Extension, 0, "render", render, 0).await;
        let cat = json!({"image": "cat", "ms": 6000});
        let cat = alice.start(Form::Extension, 0, "thumbnail", cat, 0).await;
        let dog = json!({"image": "dog", "ms": hour});
        let dog = alice
            .start(Form::Spec2025, 0, "thumbnail", dog, 600_000)
            .await;
        let tasks = [
            (Form::Extension, &render),
            (Form::Extension, &cat),
            (Form::Spec2025, &dog),
        ];
        for (form, id) in tasks {
            let task = alice
                .poll(form, 1, id, WITHIN, |task| message(task) == started_on(0))
                .await;
            assert_eq!(status(&task), "working", "{task}");
        }

        cluster.replicas[0].kill();
        alice.mark_dead(0);
        let killed = Instant::now();
        // Read through replica 2: the render fails, saying why; the cat's
        // thumbnail is made again there. Read through replica 1: the dog's
        // thumbnail runs again there.
        let ended = |task: &Value| status(task) != "working";
        let (render_task, cat_task, dog_task) = tokio::join!(
            alice.poll(Form::Extension, 2, &render, WITHIN, ended),
            alice.poll(Form::Extension, 2, &cat, WITHIN, ended),
            alice.poll(Form::Spec2025, 1, &dog, WITHIN, |task| {
                message(task) == started_on(1)
            }),
        );
        println!("the killed replica's tasks ended in {:?}", killed.elapsed());
        assert_failed(&render_task, NOT_IDEMPOTENT);
        assert_eq!(status(&cat_task), "completed", "{cat_task}");
        let made = &cat_task["result"]["content"][0]["text"];
        assert_eq!(made, "thumbnail cat on replica-2", "{cat_task}");
        assert_eq!(status(&dog_task), "working", "{dog_task}");
        // The same, read through the other living replica.
        let again = alice.get(Form::Extension, 1, &render).await.expect("read");
        assert_failed(&again, NOT_IDEMPOTENT);
        let again = alice.get(Form::Extension, 1, &cat).await.expect("read");
        assert_eq!(again["result"], cat_task["result"], "{again}");

        // The replica that runs the dog's thumbnail again is killed too.
        cluster.replicas[1].kill();
        alice.mark_dead(1);
        let waited = alice
            .request_2025(2, "tasks/result", json!({"taskId": dog}))
            .await;
        assert_eq!(waited, Err((ErrorCode::INTERNAL_ERROR, SO_DID.to_owned())));
        let dog_task = alice.get(Form::Spec2025, 2, &dog).await.expect("read");
        assert_failed(&dog_task, SO_DID);

        // Nothing stays working or becomes unknown; what may not run twice
        // ran once, the rest at most twice.
        for (form, id) in tasks {
            let task = alice.get(form, 2, id).await.expect("still known");
            assert_ne!(status(&task), "working", "{task}");
        }
        let log = &cluster.log;
        let render_runs = log.starting("ran render doomed ");
        assert_eq!(render_runs, ["ran render doomed on replica-0"]);
        let cat_runs = log.starting("ran thumbnail cat ");
        assert_eq!(
            cat_runs,
            [
                "ran thumbnail cat on replica-0",
                "ran thumbnail cat on replica-2"
            ]
        );
        // Run again for the caller that asked first: the token's.
        let callers: Vec<String> = log
            .starting("caller of thumbnail cat ")
            .iter()
            .filter_map(|line| Some(line.split_once(": ")?.1.to_owned()))
            .collect();
        assert_eq!(callers.len(), 2, "{callers:?}");
        assert!(callers[0].starts_with("t:"), "{callers:?}");
        assert_eq!(callers[0], callers[1], "the first caller's");
        let dog_runs = log.starting("ran thumbnail dog ");
        assert_eq!(
            dog_runs,
            [
                "ran thumbnail dog on replica-0",
                "ran thumbnail dog on replica-1"
            ]
        );
        assert!(cluster.replicas[2].runs(), "the last replica runs");
        let stderr = cluster.replicas[2].stderr();
        assert!(
            !stderr.iter().any(|line| line.contains("panicked")),
            "{stderr:#?}"
        );
    });
}

#[test]
fn redis_restarted_mid_run_gives_errors_that_say_so_and_then_works() {
    serially(async {
        let mut cluster = Cluster::start(3, None);
        let alice = Arc::new(Clients::connect(&cluster.urls(), ALICE).await);
        let long = json!({"video": "before", "ms": 600_000});
        let extension = alice.start(Form::Extension, 0, "render", long, 0).await;
        let long = json!({"video": "before-2025", "ms": 600_000});
        let spec = alice
            .start(Form::Spec2025, 1, "render", long, 600_000)
            .await;
        let old = [(Form::Extension, extension), (Form::Spec2025, spec)];
        for (form, id) in &old {
            alice
                .poll(*form, 2, id, WITHIN, |task| !message(task).is_empty())
                .await;
        }
        let waited = tokio::spawn({
            let alice = Arc::clone(&alice);
            async move {
                let arguments = json!({"n": 1, "ms": 600_000});
                alice.call(2, "echo_later", arguments).await
            }
        });
        // And a 2025-11-25 client waiting for the result of its task.
        let waiting = tokio::spawn({
            let alice = Arc::clone(&alice);
            let spec = old[1].1.clone();
            async move {
                let id = json!({"taskId": spec});
                alice.request_2025(0, "tasks/result", id).await
            }
        });
        let ran = cluster.log.heard("ran echo_later 1 on replica-2", WITHIN);
        assert!(ran.await.is_some(), "the waited call runs");
        for k in 0..3 {
            let sum = alice.call(k, "add", json!({"a": 1, "b": k})).await;
            assert_eq!(text(&sum), (1 + k).to_string());
        }

        cluster.redis.kill();
        let unreachable = "the redis store is unreachable: redis://127.0.0.1:";
        for k in 0..3 {
            // Tasks cannot be read now, and say so.
            for (form, id) in &old {
                let (code, said) = alice.get(*form, k, id).await.expect_err("not read");
                assert_eq!(code, ErrorCode::INTERNAL_ERROR, "{said}");
                let cannot = format!("task {id} cannot be read now: {unreachable}");
                assert!(said.starts_with(&cannot), "{said}");
            }
            // New tasks and waited calls are refused before they run.
            let refused = format!(
                "tool `render` is not available: its task could not be recorded, so it did not \
                 run: {unreachable}"
            );
            let arguments = json!({"video": "while-down", "ms": 1});
            let started = alice.try_start(Form::Extension, k, "render", arguments.clone(), 0);
            let said = started.await.expect_err("refused");
            assert!(said.starts_with(&refused), "{said}");
            let started = alice.try_start(Form::Spec2025, k, "render", arguments, 60_000);
            let said = started.await.expect_err("refused");
            assert!(said.starts_with(&refused), "{said}");
            let result = alice.call(k, "echo_later", json!({"n": 2})).await;
            assert_eq!(result.is_error, Some(true), "{result:?}");
            let not_recorded = format!(
                "tool `echo_later` is not available: its call could not be recorded, so it did \
                 not run: {unreachable}"
            );
            assert!(text(&result).starts_with(&not_recorded), "{result:?}");
            // A tool that keeps nothing in the store works.
            let sum = alice.call(k, "add", json!({"a": 2, "b": k})).await;
            assert_eq!(text(&sum), (2 + k).to_string());
        }

        // What waited before Redis went waits on through the outage (the
        // store's grace, 30 s).
        assert!(
            !waiting.is_finished(),
            "tasks/result ended while Redis was down"
        );
        assert!(
            !waited.is_finished(),
            "a waited call ended while Redis was down"
        );

        cluster.redis.start_again();
        // Redis is back empty: what waited ends saying its record was lost.
        let result = tokio::time::timeout(WITHIN, waiting).await;
        let result = result.expect("the wait ends").expect("joined");
        assert_eq!(
            result.map(|_| ()),
            Err((ErrorCode::INTERNAL_ERROR, lost_task(&old[1].1)))
        );
        let result = tokio::time::timeout(WITHIN, waited).await;
        let result = result.expect("the waited call ends").expect("joined");
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let said = text(&result);
        assert!(
            said.starts_with("the result of tool `echo_later` (call `"),
            "{said}"
        );
        assert!(
            said.ends_with(
                "`) was lost: its record is gone from the redis store, which was emptied or \
                 restarted; call the tool again if it is still needed"
            ),
            "{said}"
        );
        for k in 0..3 {
            // The tasks Redis held are failed, saying the store lost them.
            for (form, id) in &old {
                let task = retried("tasks/get", async || {
                    alice.get(*form, k, id).await.map_err(|e| e.1)
                })
                .await;
                assert_failed(&task, &lost_task(id));
            }
            let (_, spec) = &old[1];
            let result = alice.request_2025(k, "tasks/result", json!({"taskId": spec}));
            assert_eq!(
                result.await,
                Err((ErrorCode::INTERNAL_ERROR, lost_task(spec)))
            );
            let cancel = alice.cancel(Form::Spec2025, k, spec).await;
            let already = format!("task {spec} cannot be cancelled: it is already failed");
            assert_eq!(cancel, Err((ErrorCode::INVALID_PARAMS, already)));
        }
        // New calls and tasks work again, on every replica.
        for k in 0..3 {
            let n = 10 + k;
            let result = retried("a waited call", async || {
                let result = alice.call(k, "echo_later", json!({"n": n})).await;
                match result.is_error {
                    Some(true) => Err(text(&result).to_owned()),
                    _ => Ok(result),
                }
            })
            .await;
            assert_eq!(text(&result), format!("echo {n}"));
            for form in FORMS {
                let arguments = json!({"n": n});
                let id = retried("a new task", async || {
                    alice
                        .try_start(form, k, "echo_later", arguments.clone(), 60_000)
                        .await
                })
                .await;
                let task = alice
                    .poll(form, (k + 1) % 3, &id, WITHIN, |task| {
                        status(task) != "working"
                    })
                    .await;
                assert_eq!(status(&task), "completed", "{task}");
                if form == Form::Spec2025 {
                    let waited = alice
                        .request_2025(k, "tasks/result", json!({"taskId": id}))
                        .await
                        .expect("a result");
                    assert_eq!(waited["content"][0]["text"], format!("echo {n}"));
                } else {
                    assert_eq!(task["result"]["content"][0]["text"], format!("echo {n}"));
                }
            }
            let sum = alice.call(k, "add", json!({"a": 3, "b": k})).await;
            assert_eq!(text(&sum), (3 + k).to_string());
        }
        // The runs of the tasks lost were stopped: nobody could have their
        // results, and each client was told to call again.
        for stopped in [
            "cancelled render before on replica-0",
            "cancelled render before-2025 on replica-1",
        ] {
            let heard = cluster.log.heard(stopped, WITHIN).await;
            assert!(
                heard.is_some(),
                "{stopped:?} not in {:#?}",
                cluster.log.lines()
            );
        }
        cluster.assert_all_run_and_none_panicked();
    });
}

#[test]
fn ten_thousand_calls_are_all_answered_and_redis_goes_back_to_its_base_size() {
    serially(async {
        let task_ttl = Duration::from_secs(2);
        let mut cluster = Cluster::start(3, Some(task_ttl));
        let alice = Arc::new(Clients::connect(&cluster.urls(), ALICE).await);
        // Warm: each replica has made a stored call and a task, so holds
        // both of its leases (its registry's and its tasks').
        for k in 0..3 {
            let n = 100_000 + k;
            let warm = alice.call(k, "echo_later", json!({"n": n})).await;
            assert_eq!(text(&warm), format!("echo {n}"));
            let id = alice
                .start(Form::Extension, k, "echo_later", json!({"n": n}), 0)
                .await;
            alice
                .poll(Form::Extension, k, &id, WITHIN, |task| {
                    status(task) == "completed"
                })
                .await;
        }
        let base = cluster.leases();
        assert_eq!(base, 6, "two leases per replica");

        const CALLS: u64 = 10_000;
        let began = Instant::now();
        let limit = Arc::new(Semaphore::new(16));
        let mut calls = JoinSet::new();
        for n in 0..CALLS {
            let alice = Arc::clone(&alice);
            let limit = Arc::clone(&limit);
            calls.spawn(async move {
                let _turn = limit.acquire_owned().await.expect("open");
                let arguments = json!({"n": n});
                let k = alice.next();
                let answer = match n % 10 {
                    8 => {
                        let id = alice
                            .start(Form::Extension, k, "echo_later", arguments, 0)
                            .await;
                        let until = Instant::now() + WITHIN;
                        loop {
                            let other = alice.other_than(k);
                            let task = alice.get(Form::Extension, other, &id).await;
                            let task = task.unwrap_or_else(|e| panic!("{n}: {e:?}"));
                            if status(&task) != "working" {
                                assert_eq!(status(&task), "completed", "{n}: {task}");
                                break task["result"].clone();
                            }
                            assert!(Instant::now() < until, "{n}: still {task}");
                            tokio::time::sleep(Duration::from_millis(10)).await;
                        }
                    }
                    9 => {
                        let id = alice
                            .start(Form::Spec2025, k, "echo_later", arguments, 2_000)
                            .await;
                        let waited = alice
                            .request_2025(
                                alice.other_than(k),
                                "tasks/result",
                                json!({"taskId": id}),
                            )
                            .await;
                        waited.unwrap_or_else(|e| panic!("{n}: {e:?}"))
                    }
                    _ => {
                        let result = alice.call(k, "echo_later", arguments).await;
                        serde_json::to_value(result).expect("JSON")
                    }
                };
                (n, answer)
            });
        }
        let mut answered = HashSet::new();
        while let Some(joined) = calls.join_next().await {
            let (n, answer) = joined.expect("a call's task");
            assert_eq!(
                answer["content"][0]["text"],
                format!("echo {n}"),
                "{answer}"
            );
            assert_eq!(answer["isError"], false, "{answer}");
            assert!(answered.insert(n), "{n} answered twice");
        }
        assert_eq!(answered.len() as u64, CALLS);
        println!("{CALLS} calls in {:?}", began.elapsed());
        let served = alice.served();
        let total: usize = served.iter().sum();
        for (k, count) in served.iter().enumerate() {
            assert!(
                count * 4 >= total,
                "replica {k} served {count} of {total}: {served:?}"
            );
        }

        // What the calls and tasks left expires: only the leases stay.
        let ended = Instant::now();
        let until = ended + Duration::from_secs(60);
        loop {
            let keys = cluster.redis.keys();
            if keys == base as u64 {
                break;
            }
            assert!(
                Instant::now() < until,
                "Redis holds {keys} keys, not {base}, after 60 s"
            );
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        println!("Redis back to {base} keys in {:?}", ended.elapsed());
        assert_eq!(cluster.leases(), base);
        cluster.assert_all_run_and_none_panicked();
    });
}
