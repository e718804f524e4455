//! The agent example's command line (`examples/agent/options.rs`): the
//! provider and its dialect, the question, where the model is, and the
//! limits of each request and of the loop.

use tool_core::provider::Provider;

#[path = "../examples/agent/main.rs"]
#[allow(dead_code)]
mod agent;

use agent::{Api, Options, QUESTION, parse_args};

#[test]
fn the_provider_flag() {
    let args = |list: &[&str]| list.iter().map(|arg| arg.to_string()).collect::<Vec<_>>();
    let options = |api, search| {
        Ok(Options {
            api,
            search,
            whole: false,
            ..Options::default()
        })
    };
    assert_eq!(parse_args(args(&[])), options(Api::OpenAi, false));
    assert_eq!(
        parse_args(args(&["--provider", "anthropic"])),
        options(Api::Anthropic, false)
    );
    assert_eq!(
        parse_args(args(&["--provider=gemini", "--search"])),
        options(Api::Gemini, true)
    );
    assert_eq!(
        parse_args(args(&["--no-stream"])),
        Ok(Options {
            api: Api::OpenAi,
            search: false,
            whole: true,
            ..Options::default()
        })
    );
    assert_eq!(
        parse_args(args(&["--provider", "mistral"])),
        Err(
            "unknown provider `mistral`; expected one of: openai, anthropic, gemini, \
             vllm, ollama, openai-compatible"
                .into()
        )
    );
    assert_eq!(
        parse_args(args(&["--provider"])),
        Err(
            "`--provider` needs a name: openai, anthropic, gemini, vllm, ollama or \
             openai-compatible"
                .into()
        )
    );
    assert_eq!(
        parse_args(args(&["--verbose"])),
        Err(
            "unknown argument `--verbose`; usage: agent [--provider NAME] [--base-url URL] \
             [--model NAME] [--prompt TEXT] [--timeout-secs N] [--stall-secs N] [--max-requests N] \
             [--search] [--no-stream] [--restate] [--help]"
                .into()
        )
    );
    assert_eq!(
        parse_args(args(&["--restate", "--provider", "gemini"])),
        Ok(Options {
            api: Api::Gemini,
            restate: true,
            ..Options::default()
        })
    );
    assert_eq!(
        parse_args(args(&["--restate", "--search"])),
        Err("`--restate` runs every tool as it is; it does not take `--search`".into())
    );
}

#[test]
fn the_settings_flags() {
    let args = |list: &[&str]| list.iter().map(|arg| arg.to_string()).collect::<Vec<_>>();
    let options = parse_args(args(&[
        "--provider",
        "vllm",
        "--prompt",
        "Is it raining in Lyon?",
        "--base-url=http://127.0.0.1:8000/v1",
        "--model",
        "small",
        "--timeout-secs",
        "600",
        "--stall-secs=300",
        "--max-requests",
        "4",
    ]))
    .expect("valid flags");
    assert_eq!(options.api, Api::OpenAi);
    assert_eq!(options.provider(), Provider::Vllm { strict: true });
    assert_eq!(options.prompt, "Is it raining in Lyon?");
    assert_eq!(
        options.base_url.as_deref(),
        Some("http://127.0.0.1:8000/v1")
    );
    assert_eq!(options.model.as_deref(), Some("small"));
    assert_eq!(options.timeout, std::time::Duration::from_secs(600));
    assert_eq!(options.stall, std::time::Duration::from_secs(300));
    assert_eq!(options.max_requests, 4);
    assert_eq!(
        parse_args(args(&[])).map(|options| options.prompt),
        Ok(QUESTION.to_owned())
    );
    assert_eq!(
        parse_args(args(&["--provider", "ollama"])).map(|options| options.provider()),
        Ok(Provider::Ollama)
    );
    assert_eq!(
        parse_args(args(&["--provider=openai-compatible"])).map(|options| options.provider()),
        Ok(Provider::OpenAiChat { strict: false })
    );
    assert_eq!(
        parse_args(args(&["--timeout-secs", "0"])),
        Err("`--timeout-secs` takes a whole number of seconds, at least 1; got `0`".into())
    );
    assert_eq!(
        parse_args(args(&["--help"])).map(|options| options.help),
        Ok(true)
    );
}
