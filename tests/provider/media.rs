//! Results that are more than text, in every provider's shape: the exact
//! JSON each receives, equal to the documented payloads in
//! `tests/fixtures/providers/media/` where the documentation shows one, and
//! what a provider cannot carry said in text.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};
use tool_core::output::{Image, Link, Media, Part};
use tool_core::provider::{Provider, ProviderCall};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

use crate::payloads;

/// A fixture from `tests/fixtures/providers/media/`, parsed.
fn fixture(name: &str) -> Value {
    payloads::fixture(&format!("media/{name}"))
}

fn bytes(base64: &str) -> Vec<u8> {
    BASE64
        .decode(base64)
        .expect("the fixtures' base64 is valid")
}

/// The documentation's placeholders: a JPEG and a PNG header, a WAV header,
/// a PDF header.
const JPEG: &str = "/9j/4AAQSkZJRg==";
const PNG: &str = "iVBORw0KGgo=";
const WAV: &str = "UklGRiQAAABXQVZF";
const PDF: &str = "JVBERi0xLjQK";

fn call(id: &str, name: &str) -> ProviderCall {
    ProviderCall::new(Some(id.to_owned()), name, json!({}))
}

/// The reply of one call whose result is `result`.
fn reply(provider: Provider, name: &str, result: ToolResult) -> Vec<Value> {
    provider.format_results(&[call("call_1", name)], &[result])
}

/// A fixture's content block without its `annotations`, which results do
/// not carry.
fn without_annotations(mut block: Value) -> Value {
    block.as_object_mut().map(|b| b.remove("annotations"));
    if let Some(resource) = block.get_mut("resource").and_then(Value::as_object_mut) {
        resource.remove("annotations");
    }
    block
}

// ---------------------------------------------------------------------------
// Anthropic: `tool_result` content blocks.
// ---------------------------------------------------------------------------

/// Get the weather as text and a picture.
#[tool(name = "get_weather", tier = Observe)]
fn weather_with_picture(
    /// The city.
    location: String,
) -> Vec<Part> {
    let _ = location;
    vec![Part::text("15 degrees"), Image::jpeg(bytes(JPEG)).into()]
}

#[tokio::test]
async fn anthropic_takes_text_and_an_image_as_its_documentation_shows() {
    let registry: ToolRegistry = ToolRegistry::new().with(WeatherWithPicture);
    let response = json!({"role": "assistant", "content": [{
        "type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9",
        "name": "get_weather", "input": {"location": "San Francisco, CA"}
    }]});
    let turn = Provider::Anthropic { strict: false }
        .respond(&registry, &ToolContext::new(()), &response)
        .await
        .unwrap();
    assert_eq!(turn.reply(), [fixture("anthropic-tool_result-image.json")]);
}

#[test]
fn anthropic_takes_a_plain_text_document_as_its_documentation_shows() {
    let result = ToolResult::parts([
        Part::text("The weather is"),
        Part::media("text/plain", "15 degrees"),
    ]);
    let calls = [call("toolu_01A09q90qw90lq917835lq9", "get_weather")];
    assert_eq!(
        Provider::Anthropic { strict: false }.format_results(&calls, &[result]),
        [fixture("anthropic-tool_result-document-text.json")]
    );
}

#[test]
fn anthropic_takes_pdfs_and_web_links_and_says_what_it_cannot_take() {
    let result = ToolResult::parts([
        Media::new("application/pdf", bytes(PDF))
            .named("report.pdf")
            .into(),
        Link::new(
            "https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg",
            "ant.jpg",
        )
        .with_media_type("image/jpeg")
        .into(),
        Link::new("https://example.com/q3.pdf", "q3.pdf")
            .with_media_type("application/pdf")
            .into(),
        Link::new("file:///tmp/notes.md", "notes.md").into(),
        Media::new("audio/wav", bytes(WAV)).named("clip.wav").into(),
        Image::new("image/svg+xml", "<svg/>").into(),
    ]);
    let reply = reply(Provider::Anthropic { strict: false }, "report", result);
    assert_eq!(
        reply[0]["content"][0]["content"],
        json!([
            {"type": "document", "title": "report.pdf",
             "source": {"type": "base64", "media_type": "application/pdf", "data": PDF}},
            fixture("anthropic-image-block-url-source.json"),
            {"type": "document", "source": {"type": "url", "url": "https://example.com/q3.pdf"}},
            {"type": "text", "text": "[link notes.md: file:///tmp/notes.md]"},
            {"type": "text", "text": "[audio clip.wav (audio/wav, 12 bytes) left out: Anthropic Messages takes no audio/wav in a tool result]"},
            {"type": "text", "text": "[image (image/svg+xml, 6 bytes) left out: Anthropic Messages takes no image/svg+xml in a tool result]"},
        ])
    );
    // The documented URL form of a PDF, as a tool result carries it.
    let documented = fixture("anthropic-document-pdf-url-request.json");
    assert_eq!(
        documented["messages"][0]["content"][0]["type"],
        reply[0]["content"][0]["content"][2]["type"]
    );
}

#[test]
fn a_text_result_is_a_string_as_before() {
    let reply = reply(
        Provider::Anthropic { strict: false },
        "t",
        ToolResult::text("plain"),
    );
    assert_eq!(reply[0]["content"][0]["content"], "plain");
}

// ---------------------------------------------------------------------------
// OpenAI Responses: `function_call_output` with a list of input parts.
// ---------------------------------------------------------------------------

#[test]
fn responses_takes_input_parts_in_the_output() {
    let boardwalk = fixture("openai-responses-input_image-part-detail.json");
    let result = ToolResult::parts([
        Part::text("Two pictures and a report."),
        Image::png(bytes(PNG)).into(),
        Link::new(boardwalk["image_url"].as_str().unwrap(), "boardwalk.jpg")
            .with_media_type("image/jpeg")
            .into(),
        Media::new("application/pdf", bytes(PDF))
            .named("document.pdf")
            .into(),
        Link::new(
            "https://www.berkshirehathaway.com/letters/2024ltr.pdf",
            "2024ltr.pdf",
        )
        .with_media_type("application/pdf")
        .into(),
        Media::new("audio/wav", bytes(WAV)).into(),
    ]);
    let documented_file =
        &fixture("openai-responses-input_file-request-file_data.json")["input"][0]["content"][0];
    assert_eq!(
        reply(
            Provider::OpenAiResponses { strict: true },
            "pictures",
            result
        ),
        [json!({
            "type": "function_call_output",
            "call_id": "call_1",
            "output": [
                {"type": "input_text", "text": "Two pictures and a report."},
                {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG}")},
                {"type": "input_image", "image_url": boardwalk["image_url"]},
                {"type": "input_file", "filename": documented_file["filename"], "file_data": documented_file["file_data"]},
                {"type": "input_file", "filename": "2024ltr.pdf", "file_url": "https://www.berkshirehathaway.com/letters/2024ltr.pdf"},
                {"type": "input_text", "text": "[audio (audio/wav, 12 bytes) left out: OpenAI Responses takes no audio/wav in a tool result]"},
            ],
        })]
    );
}

// ---------------------------------------------------------------------------
// OpenAI Chat Completions: a `tool` message takes text only.
// ---------------------------------------------------------------------------

#[test]
fn chat_names_media_in_the_tool_message_and_sends_it_in_a_user_message() {
    let chart = ToolResult::parts([
        Part::text("Sales by month."),
        Image::png(bytes(PNG)).named("sales.png").into(),
    ]);
    let report = ToolResult::parts([
        Media::new("application/pdf", bytes(PDF)).into(),
        Media::new("audio/mpeg", bytes(WAV)).into(),
    ]);
    let calls = [
        call("call_1", "chart"),
        call("call_2", "weather"),
        call("call_3", "report"),
    ];
    let results = [chart, ToolResult::text("sunny"), report];
    assert_eq!(
        Provider::OpenAiChat { strict: false }.format_results(&calls, &results),
        [
            json!({"role": "tool", "tool_call_id": "call_1",
                   "content": "Sales by month.\n[image sales.png (image/png, 8 bytes)]"}),
            json!({"role": "tool", "tool_call_id": "call_2", "content": "sunny"}),
            json!({"role": "tool", "tool_call_id": "call_3",
                   "content": "[document (application/pdf, 9 bytes)]\n[audio (audio/mpeg, 12 bytes)]"}),
            json!({"role": "user", "content": [
                {"type": "text", "text": "Attached by tool `chart` (call `call_1`):"},
                {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG}")}},
                {"type": "text", "text": "Attached by tool `report` (call `call_3`):"},
                {"type": "file", "file": {"filename": "document.pdf", "file_data": format!("data:application/pdf;base64,{PDF}")}},
                {"type": "input_audio", "input_audio": {"data": WAV, "format": "mp3"}},
            ]}),
        ]
    );
}

#[test]
fn chat_sends_no_user_message_without_media() {
    let result = ToolResult::parts([Part::text("a"), Part::Json(json!({"b": 1}))]);
    assert_eq!(
        reply(Provider::OpenAiChat { strict: true }, "t", result),
        [json!({"role": "tool", "tool_call_id": "call_1", "content": "a\n{\"b\":1}"})]
    );
}

// ---------------------------------------------------------------------------
// Gemini 3: media in the function response's own `parts`.
// ---------------------------------------------------------------------------

/// Get the picture of an instrument.
#[tool(tier = Observe)]
fn get_image() -> Image {
    Image::jpeg(bytes(JPEG)).named("instrument.jpg")
}

#[tokio::test]
async fn gemini_takes_an_image_as_its_documentation_shows() {
    let registry: ToolRegistry = ToolRegistry::new().with(GetImage);
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_image", "id": "UNIQUE_CALL_ID_HERE", "args": {}}}
    ]}}]});
    let turn = Provider::Gemini { openapi: false }
        .respond(&registry, &ToolContext::new(()), &response)
        .await
        .unwrap();
    assert_eq!(
        turn.reply(),
        [fixture("gemini-functionResponse-inlineData.json")]
    );
}

#[test]
fn gemini_names_each_medium_once_and_says_what_it_cannot_take() {
    let result = ToolResult::parts([
        Part::text("Three charts."),
        Image::png(bytes(PNG)).named("chart.png").into(),
        Image::png(bytes(PNG)).named("chart.png").into(),
        Image::gif(bytes(PNG)).into(),
        Media::new("application/pdf", bytes(PDF)).into(),
    ]);
    assert_eq!(
        reply(Provider::Gemini { openapi: false }, "charts", result),
        [json!({"role": "user", "parts": [{"functionResponse": {
            "name": "charts",
            "id": "call_1",
            "response": {
                "output": "Three charts.\n[image (image/gif, 8 bytes) left out: Gemini takes no image/gif in a tool result]",
                "image_ref": {"$ref": "chart.png"},
                "image_ref_2": {"$ref": "image_2"},
                "document_ref": {"$ref": "document_3"},
            },
            "parts": [
                {"inlineData": {"displayName": "chart.png", "mimeType": "image/png", "data": PNG}},
                {"inlineData": {"displayName": "image_2", "mimeType": "image/png", "data": PNG}},
                {"inlineData": {"displayName": "document_3", "mimeType": "application/pdf", "data": PDF}},
            ],
        }}]})]
    );
}

// ---------------------------------------------------------------------------
// MCP: content blocks.
// ---------------------------------------------------------------------------

#[test]
fn mcp_takes_each_part_as_the_content_block_the_specification_shows() {
    let result = ToolResult::parts([
        Part::text("Tool result text"),
        Image::png(bytes(PNG)).into(),
        Media::new("audio/wav", bytes(WAV)).into(),
        Link::new("file:///project/src/main.rs", "main.rs")
            .with_description("Primary application entry point")
            .with_media_type("text/x-rust")
            .into(),
        Media::new(
            "text/x-rust",
            "fn main() {\n    println!(\"Hello world!\");\n}",
        )
        .named("file:///project/src/main.rs")
        .into(),
        Media::new("application/pdf", bytes(PDF)).into(),
    ]);
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                         "params": {"name": "files", "arguments": {}}});
    let calls = Provider::Mcp.parse_calls(&request).unwrap();
    let reply = Provider::Mcp.format_results(&calls, &[result]);
    let mut blocks = Vec::new();
    for version in ["2025-06-18", "2025-11-25"] {
        blocks.push(
            [
                "text",
                "image",
                "audio",
                "resource_link",
                "resource-embedded",
            ]
            .map(|block| {
                without_annotations(fixture(&format!(
                    "mcp-{version}-tools-content-{block}.json"
                )))
            })
            .to_vec(),
        );
    }
    assert_eq!(
        blocks[0], blocks[1],
        "the two versions show the same blocks"
    );
    let mut expected = blocks.remove(0);
    expected.push(json!({"type": "resource", "resource": {
        "uri": "attachment:document", "mimeType": "application/pdf", "blob": PDF,
    }}));
    assert_eq!(
        reply,
        [json!({"jsonrpc": "2.0", "id": 7, "result": {"content": expected, "isError": false}})]
    );
}

// ---------------------------------------------------------------------------
// What a function returns, and the size limit.
// ---------------------------------------------------------------------------

#[derive(Debug, thiserror::Error)]
#[error("no camera is attached")]
struct NoCamera;

/// Take a picture.
#[tool(tier = Observe)]
async fn snapshot(
    /// Whether a camera is attached.
    attached: bool,
) -> Result<Image, NoCamera> {
    if attached {
        Ok(Image::jpeg(bytes(JPEG)))
    } else {
        Err(NoCamera)
    }
}

/// Show a link.
#[tool(tier = Observe)]
fn show_link() -> Link {
    Link::new("https://example.com/a.png", "a.png")
}

#[tokio::test]
async fn functions_return_media_links_and_results_of_them() {
    let registry: ToolRegistry = ToolRegistry::new().with(Snapshot).with(ShowLink);
    let ctx = ToolContext::new(());
    let taken = registry
        .call(&ctx, "snapshot", json!({"attached": true}))
        .await;
    assert_eq!(
        taken.as_parts(),
        Some(&[Part::Media(Media::new("image/jpeg", bytes(JPEG)))][..])
    );
    let failed = registry
        .call(&ctx, "snapshot", json!({"attached": false}))
        .await;
    assert!(failed.is_error());
    assert_eq!(failed.model_text(), "no camera is attached");
    let link = registry.call(&ctx, "show_link", json!({})).await;
    assert_eq!(link.model_text(), "[link a.png: https://example.com/a.png]");
}

#[tokio::test]
async fn a_medium_over_the_limit_is_an_error_result_that_says_so() {
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(WeatherWithPicture)
        .max_media_bytes(9)
        .build();
    let result = registry
        .call(
            &ToolContext::new(()),
            "get_weather",
            json!({"location": "Oslo"}),
        )
        .await;
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "tool `get_weather` returned image/jpeg of 10 bytes, over the limit of 9 bytes for one media part, so its result was withheld"
    );
    let calls = [call("toolu_1", "get_weather")];
    assert_eq!(
        Provider::Anthropic { strict: false }.format_results(&calls, &[result])[0]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "toolu_1", "is_error": true,
               "content": "tool `get_weather` returned image/jpeg of 10 bytes, over the limit of 9 bytes for one media part, so its result was withheld"})
    );
    let at_the_limit = ToolRegistry::<()>::builder()
        .with(WeatherWithPicture)
        .max_media_bytes(10)
        .build()
        .call(
            &ToolContext::new(()),
            "get_weather",
            json!({"location": "Oslo"}),
        )
        .await;
    assert!(!at_the_limit.is_error());
}

#[test]
fn ollama_takes_images_in_the_user_message_s_images_field() {
    let calls = [ProviderCall::new(None, "chart", json!({}))];
    let result = ToolResult::parts([
        Part::text("Sales."),
        Image::png(bytes(PNG)).into(),
        Media::new("application/pdf", bytes(PDF)).into(),
    ]);
    assert_eq!(
        Provider::Ollama.format_results(&calls, &[result]),
        [
            json!({"role": "tool", "tool_name": "chart",
                   "content": "Sales.\n[image (image/png, 8 bytes)]\n[document (application/pdf, 9 bytes)]"}),
            json!({"role": "user", "content": "Attached by tool `chart`:", "images": [PNG]}),
        ]
    );
}

#[path = "../../examples/report.rs"]
#[allow(dead_code)]
mod report;

#[tokio::test]
async fn the_report_example_draws_a_png_chart() {
    let registry = report::registry();
    let ctx = ToolContext::new(());
    let chart = registry
        .call(
            &ctx,
            "bar_chart",
            json!({"title": "Q1", "values": [40, 65, 90]}),
        )
        .await;
    let parts = chart.as_parts().expect("text and an image");
    assert_eq!(parts[0], Part::text("Q1: 3 bars."));
    let image = parts[1].as_media().expect("an image");
    assert_eq!(image.media_type(), "image/png");
    assert_eq!(image.name(), Some("chart.png"));
    // The PNG signature, then the header: 3 bars of 16 pixels, 100 high,
    // 8-bit greyscale.
    assert_eq!(&image.data()[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&image.data()[12..16], b"IHDR");
    assert_eq!(
        &image.data()[16..29],
        [0, 0, 0, 48, 0, 0, 0, 100, 8, 0, 0, 0, 0]
    );

    let over = registry
        .call(&ctx, "bar_chart", json!({"title": "Q1", "values": [140]}))
        .await;
    assert_eq!(over.model_text(), "value 140 is over 100; give percentages");
    let total = registry
        .call(&ctx, "quarter_total", json!({"months": [400, 650, 900]}))
        .await;
    assert_eq!(total.model_text(), "1950 in total over 3 months");
}
