//! `#[resource]` and `#[prompt]` in each form (plain and `async`, with a
//! context and without, every kind of value returned and of parameter
//! taken, `crate = ...`), expanded cleanly under lints a user may deny in
//! their own code, and each read or got as written.

#![deny(
    warnings,
    elided_lifetimes_in_paths,
    missing_copy_implementations,
    missing_debug_implementations,
    missing_docs,
    non_upper_case_globals,
    redundant_lifetimes,
    rust_2018_idioms,
    single_use_lifetimes,
    trivial_casts,
    unreachable_pub,
    unsafe_code,
    unused_attributes,
    unused_lifetimes,
    unused_qualifications,
    unused_results
)]

extern crate tool_core as my_tools;

use serde_json::{json, Value};
use tool_core::output::{Image, Media};
use tool_core::prompt::{PromptArguments, PromptError, PromptMessage, Prompts};
use tool_core::resource::{ResourceContents, ResourceError, Resources};
use tool_core::{prompt, resource, ToolContext};

/// The application's state.
#[derive(Debug)]
pub struct App {
    /// Who is asking.
    pub user: String,
}

/// Text.
#[resource(uri = "test://text", mime_type = "text/plain")]
pub fn text() -> &'static str {
    "text"
}

/// Owned text.
#[resource(uri = "test://string")]
pub async fn owned_text(ctx: &ToolContext<App>) -> String {
    ctx.state().user.clone()
}

/// Bytes.
#[resource(uri = "test://bytes", mime_type = "application/octet-stream")]
pub fn some_bytes() -> Vec<u8> {
    vec![1, 2, 3]
}

/// JSON.
#[resource(uri = "test://json/{n}", mime_type = "application/json", complete = numbers)]
pub fn numbered(n: u32) -> Value {
    json!({"n": n})
}

fn numbers(_name: &str, prefix: &str) -> Vec<String> {
    ["1", "2"].iter().filter(|n| n.starts_with(prefix)).map(|n| (*n).to_owned()).collect()
}

/// Media.
#[resource(uri = "test://media", mime_type = "text/plain")]
pub fn a_document() -> Media {
    Media::new("application/pdf", b"%PDF".to_vec())
}

/// An image.
#[resource(uri = "test://image")]
pub fn an_image() -> Image {
    Image::png(vec![0x89])
}

/// Contents by hand.
#[resource(uri = "hand://{+path}", name = "by-hand")]
pub fn by_hand(
    /// Where, `/` allowed.
    path: String,
) -> Vec<ResourceContents> {
    vec![
        ResourceContents::text(format!("hand://{path}"), "a"),
        ResourceContents::text("test://other", "b"),
    ]
}

/// Maybe there.
#[resource(uri = "test://maybe/{there}")]
pub fn maybe(there: bool) -> Option<ResourceContents> {
    there.then(|| ResourceContents::text("test://maybe/true", "here"))
}

/// Its own errors.
#[resource(uri = "test://own/{id}", crate = my_tools)]
pub fn own(#[serde(rename = "id")] number: u8) -> Result<String, ResourceError> {
    Err(ResourceError::failed(format!("test://own/{number}"), "gone"))
}

/// Any error.
#[resource(uri = "test://any")]
pub async fn any() -> Result<String, std::fmt::Error> {
    Err(std::fmt::Error)
}

/// Hello.
#[prompt]
pub fn hello() -> &'static str {
    "hello"
}

/// Greet.
#[prompt(name = "greet-user", complete = numbers)]
pub async fn greet(
    ctx: &ToolContext<App>,
    /// How many times.
    times: Option<u8>,
    /// In capitals.
    #[serde(rename = "loud")]
    shout: bool,
) -> String {
    let greeting = format!("hello {}", ctx.state().user).repeat(usize::from(times.unwrap_or(1)));
    if shout {
        greeting.to_uppercase()
    } else {
        greeting
    }
}

/// One message.
#[prompt(crate = "my_tools")]
pub fn one() -> PromptMessage {
    PromptMessage::assistant("one")
}

/// Many messages.
#[prompt(description = "Many.")]
pub fn many(text: String) -> Vec<PromptMessage> {
    vec![PromptMessage::user(text.clone()), PromptMessage::assistant(text)]
}

/// Its own error.
#[prompt]
pub fn refuse() -> Result<String, PromptError> {
    Err(PromptError::Failed {
        prompt: "refuse".to_owned(),
        message: "no".to_owned(),
    })
}

/// Any error.
#[prompt]
pub async fn fail() -> Result<PromptMessage, String> {
    Err("broken".to_owned())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let resources = Resources::<App>::new()
        .with(Text)
        .with(OwnedText)
        .with(SomeBytes)
        .with(Numbered)
        .with(ADocument)
        .with(AnImage)
        .with(ByHand)
        .with(Maybe)
        .with(Own)
        .with(Any);
    let ctx = ToolContext::new(App { user: "ada".to_owned() });
    let read = |uri: &'static str| resources.read(&ctx, uri);
    assert_eq!(read("test://text").await.unwrap()[0].mime_type(), Some("text/plain"));
    assert_eq!(read("test://string").await.unwrap()[0].as_text(), Some("ada"));
    assert_eq!(read("test://bytes").await.unwrap()[0].as_bytes().map(|b| b.len()), Some(3));
    assert_eq!(read("test://json/7").await.unwrap()[0].as_text(), Some(r#"{"n":7}"#));
    assert_eq!(read("test://json/x").await.unwrap_err(), ResourceError::not_found("test://json/x"));
    assert_eq!(read("test://media").await.unwrap()[0].mime_type(), Some("application/pdf"));
    assert_eq!(read("test://image").await.unwrap()[0].mime_type(), Some("image/png"));
    assert_eq!(read("hand://a/b").await.unwrap().len(), 2);
    assert_eq!(read("test://maybe/true").await.unwrap()[0].as_text(), Some("here"));
    assert_eq!(read("test://maybe/false").await.unwrap_err(), ResourceError::not_found("test://maybe/false"));
    assert_eq!(read("test://own/3").await.unwrap_err(), ResourceError::failed("test://own/3", "gone"));
    assert_eq!(
        read("test://any").await.unwrap_err(),
        ResourceError::failed("test://any", "an error occurred when formatting an argument")
    );
    assert_eq!(resources.get("test://json/{n}").map(|json| json.complete("n", "2")), Some(vec!["2".to_owned()]));
    assert_eq!(resources.get("hand://{+path}").map(|r| r.name().to_owned()), Some("by-hand".to_owned()));

    let prompts = Prompts::<App>::new()
        .with(Hello)
        .with(Greet)
        .with(One)
        .with(Many)
        .with(Refuse)
        .with(Fail);
    let got = |name: &'static str, arguments: &[(&str, &str)]| {
        let arguments: PromptArguments = arguments
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect();
        let prompts = &prompts;
        let ctx = &ctx;
        async move { prompts.messages(ctx, name, &arguments).await }
    };
    assert_eq!(got("hello", &[]).await.unwrap(), [PromptMessage::user("hello")]);
    assert_eq!(
        got("greet-user", &[("times", "2"), ("loud", "true")]).await.unwrap(),
        [PromptMessage::user("HELLO ADAHELLO ADA")]
    );
    assert_eq!(
        got("greet-user", &[("loud", "very")]).await.unwrap_err().to_string(),
        "prompt `greet-user`: argument `loud`: provided string was not `true` or `false`"
    );
    assert_eq!(got("one", &[]).await.unwrap(), [PromptMessage::assistant("one")]);
    assert_eq!(got("many", &[("text", "t")]).await.unwrap().len(), 2);
    assert_eq!(got("refuse", &[]).await.unwrap_err().to_string(), "prompt `refuse` failed: no");
    assert_eq!(got("fail", &[]).await.unwrap_err().to_string(), "prompt `fail` failed: broken");
    let greet = prompts.get("greet-user").unwrap();
    let arguments = greet.arguments();
    assert_eq!(arguments.len(), 2);
    assert_eq!((arguments[1].name.as_str(), arguments[1].required), ("loud", true));
    assert_eq!(greet.complete("times", "1"), ["1"]);
    assert_eq!(prompts.get("many").unwrap().description(), "Many.");
    // The functions stay callable as written.
    assert_eq!(text(), "text");
    assert_eq!(many("x".to_owned()).len(), 2);
}
