//! The agent example's streamed loop (`examples/agent/`, the default):
//! every provider's loop streamed gives the loop read whole
//! (`--no-stream`), and a stream that stalls or is cut ends the loop with
//! an error that says so.

#[path = "../examples/agent/main.rs"]
#[allow(dead_code)]
mod agent;

use agent::{Api, Endpoint, QUESTION, run, scripted};

/// Streamed (each call started while the model writes the rest) or read
/// whole, every provider's loop calls the same tools with the same
/// arguments, gets the same results and the same answer.
#[tokio::test]
async fn each_providers_loop_streamed_is_the_loop_read_whole() {
    for api in [Api::OpenAi, Api::Anthropic, Api::Gemini] {
        let base_url = scripted::serve(api).await.expect("served");
        let streamed = run(&Endpoint::local(api, base_url.as_str()), QUESTION)
            .await
            .expect("streamed");
        let whole = run(&Endpoint::local(api, base_url.as_str()).whole(), QUESTION)
            .await
            .expect("whole");
        assert_eq!(streamed.to_string(), whole.to_string(), "{api}");
        assert_eq!(streamed.conversation, whole.conversation, "{api}");
    }
}

/// A model whose stream stops sending ends the loop, saying it stalled,
/// once the time set passes; a stream cut before the turn's end says so.
#[tokio::test]
async fn a_stream_that_stalls_or_is_cut_ends_the_loop_saying_so() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    async fn server(close: bool) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let address = listener.local_addr().expect("bound");
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.expect("a client");
            let mut buffer = vec![0_u8; 65536];
            let _ = socket.read(&mut buffer).await;
            let event = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Let\"}}]}\n\n";
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n{:x}\r\n{event}\r\n",
                event.len()
            );
            socket.write_all(head.as_bytes()).await.expect("written");
            if close {
                let _ = socket.write_all(b"0\r\n\r\n").await;
                return;
            }
            tokio::time::sleep(std::time::Duration::from_secs(5)).await;
        });
        format!("http://{address}/v1")
    }
    let stalled = server(false).await;
    let endpoint = Endpoint::local(Api::OpenAi, stalled.as_str())
        .stalling_after(std::time::Duration::from_millis(300));
    let error = run(&endpoint, QUESTION).await.expect_err("stalled");
    assert_eq!(
        error.to_string(),
        format!("{stalled}/chat/completions sent nothing for 300ms: its stream stalled")
    );
    let cut = server(true).await;
    let error = run(&Endpoint::local(Api::OpenAi, cut.as_str()), QUESTION)
        .await
        .expect_err("cut");
    assert_eq!(
        error.to_string(),
        "the openai-strict stream could not be read at byte 78: the stream ended before the turn \
         did (no `finish_reason`, no `[DONE]`)"
    );
}
