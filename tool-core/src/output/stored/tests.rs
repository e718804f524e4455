use std::error::Error as _;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::error::message::ErrorMessage;
use crate::error::tool_error::{ToolError, Violation};
use crate::output::media::{Image, Link, Media, Part, ToolRef};
use crate::output::result::ToolResult;

fn stored(result: &ToolResult) -> String {
    serde_json::to_string(result).unwrap()
}

fn read(stored: &str) -> Result<ToolResult, serde_json::Error> {
    serde_json::from_str(stored)
}

#[track_caller]
fn assert_round_trip(result: &ToolResult) {
    let text = stored(result);
    let back = read(&text).unwrap_or_else(|error| panic!("{text} does not read back: {error}"));
    assert_eq!(&back, result, "{text}");
    // Read from a JSON value, the deserializer that owns its strings.
    let from_value: ToolResult = serde_json::from_value(serde_json::to_value(result).unwrap())
        .unwrap_or_else(|error| panic!("{text} does not read back from a value: {error}"));
    assert_eq!(&from_value, result, "{text}");
}

fn every_error() -> Vec<ToolError> {
    vec![
        ToolError::UnknownTool {
            name: "get_wether".into(),
            suggestion: Some("get_weather".into()),
            available: vec!["get_weather".into(), "search".into()],
        },
        ToolError::UnknownTool {
            name: "x".into(),
            suggestion: None,
            available: vec![],
        },
        ToolError::ArgumentsTooLarge {
            tool: "upload".into(),
            size: 1_048_577,
            limit: 1_048_576,
        },
        ToolError::MalformedArguments {
            tool: "upload".into(),
            problem: "are not JSON".into(),
        },
        ToolError::InvalidArguments {
            tool: "get_weather".into(),
            violations: vec![
                Violation::new("/units", "expected `celsius` or `fahrenheit`"),
                Violation::new("", "missing argument `city`"),
            ],
        },
        ToolError::Unavailable {
            tool: "deploy".into(),
            reason: "outside office hours".into(),
        },
        ToolError::MissingScope {
            tool: "deploy".into(),
            scope: "ops:write".into(),
        },
        ToolError::Denied {
            tool: "deploy".into(),
            reason: "not approved".into(),
        },
        ToolError::Execution {
            tool: "parse".into(),
            message: "no digits".into(),
        },
        ToolError::Timeout {
            tool: "slow".into(),
            after: Duration::from_secs(30),
        },
        ToolError::Cancelled {
            tool: "slow".into(),
        },
        ToolError::Panicked {
            tool: "buggy".into(),
            message: "index out of bounds".into(),
        },
        ToolError::PendingTimeout {
            tool: "render".into(),
            call_id: "call-1".into(),
            after: Duration::from_millis(1500),
        },
        ToolError::Lost {
            tool: "render".into(),
            call_id: "call-1".into(),
            reason: "the store was emptied".into(),
        },
        ToolError::MediaTooLarge {
            tool: "render".into(),
            media_type: "image/png".into(),
            size: 6_000_000,
            limit: 5_242_880,
        },
        ToolError::InvalidOutput {
            tool: "forecast".into(),
            violations: vec![Violation::new("/temp", "expected a number")],
        },
    ]
}

fn every_part() -> Vec<Part> {
    vec![
        Part::text("The chart:"),
        Part::Json(json!({"rows": [1, 2.5, null], "ok": true})),
        Image::png(vec![0x89, b'P', b'N', b'G'])
            .named("chart.png")
            .into(),
        Image::jpeg(Vec::new()).into(),
        Part::media("audio/wav", vec![0u8, 1, 2, 254, 255]),
        Media::new("application/pdf", b"%PDF-1.7".to_vec())
            .named("report.pdf")
            .into(),
        Media::new("text/plain", "plain text, é".as_bytes().to_vec()).into(),
        Link::new("https://example.com/q3.pdf", "q3.pdf").into(),
        Link::new("file:///tmp/q3.pdf", "q3.pdf")
            .with_media_type("application/pdf")
            .with_description("The third quarter's report.")
            .into(),
        ToolRef::new("get_weather", "Get the weather.").into(),
        ToolRef::new("get_weather", "Get the weather.")
            .with_input_schema(
                json!({"type": "object", "properties": {"city": {"type": "string"}}}),
            )
            .into(),
    ]
}

#[test]
fn a_text_result_is_stored_as_its_version_and_text() {
    assert_eq!(
        stored(&ToolResult::text("sunny")),
        r#"{"v":1,"output":{"text":"sunny"}}"#
    );
}

#[test]
fn the_form_of_every_field_is_pinned() {
    let parts = ToolResult::parts([
        Part::text("The chart:"),
        Image::png(vec![1, 2, 3]).named("chart.png").into(),
        Link::new("https://example.com/a", "a")
            .with_media_type("text/html")
            .into(),
        ToolRef::new("search", "Find tools.").into(),
    ]);
    assert_eq!(
        stored(&parts),
        r#"{"v":1,"output":{"parts":[{"text":"The chart:"},{"media":{"media_type":"image/png","data":"AQID","name":"chart.png"}},{"link":{"uri":"https://example.com/a","name":"a","media_type":"text/html"}},{"tool":{"name":"search","description":"Find tools."}}]}}"#
    );
    let json = ToolResult::json(json!({"temp": 21})).with_structured_content(json!({"temp": 21}));
    assert_eq!(
        stored(&json),
        r#"{"v":1,"output":{"json":{"temp":21}},"structured":{"temp":21}}"#
    );
    assert_eq!(
        stored(&ToolResult::error("city not found")),
        r#"{"v":1,"output":{"text":"city not found"},"is_error":true}"#
    );
    let timeout: ToolResult = ToolError::Timeout {
        tool: "slow".into(),
        after: Duration::new(1, 500_000_000),
    }
    .into();
    assert_eq!(
        stored(&timeout),
        r#"{"v":1,"output":{"text":"tool `slow` did not finish within 1.5s and was stopped"},"is_error":true,"error":{"timeout":{"tool":"slow","after":{"secs":1,"nanos":500000000}}}}"#
    );
    let pending = ToolResult::pending("render", "call-1");
    assert!(stored(&pending).ends_with(r#","state":{"pending":"call-1"}}"#));
    assert_eq!(
        stored(&ToolResult::deferred()),
        r#"{"v":1,"output":{"text":""},"state":"deferred"}"#
    );
}

#[test]
fn text_json_and_parts_outputs_round_trip() {
    assert_round_trip(&ToolResult::text("sunny"));
    assert_round_trip(&ToolResult::text(""));
    assert_round_trip(&ToolResult::text("quotes \" and \\ and\nnewlines, 東京"));
    assert_round_trip(&ToolResult::json(
        json!({"temp": 21, "list": [1, "a", null]}),
    ));
    assert_round_trip(&ToolResult::json(json!("a string")));
    assert_round_trip(&ToolResult::json(json!(null)));
    assert_round_trip(&ToolResult::parts(Vec::new()));
    assert_round_trip(&ToolResult::parts(every_part()));
}

#[test]
fn every_part_kind_round_trips_alone() {
    for part in every_part() {
        assert_round_trip(&ToolResult::parts([part]));
    }
}

#[test]
fn every_error_variant_round_trips() {
    for error in every_error() {
        let result: ToolResult = error.clone().into();
        assert_round_trip(&result);
        let back = read(&stored(&result)).unwrap();
        assert_eq!(back.tool_error(), Some(&error));
        assert_eq!(back.model_text(), error.to_string());
    }
    assert_round_trip(&ToolResult::error("city not found"));
}

#[test]
fn structured_content_and_the_error_flag_round_trip() {
    let value = json!({"temp": 21, "unit": "°C"});
    assert_round_trip(&ToolResult::json(value.clone()).with_structured_content(value));
    assert_round_trip(&ToolResult::text("null").with_structured_content(json!(null)));
    assert_round_trip(&ToolResult::error("bad city").with_structured_content(json!({"ok": false})));
    let failed: ToolResult = ToolError::Cancelled { tool: "x".into() }.into();
    assert_round_trip(&failed.with_structured_content(json!([1, 2])));
}

#[test]
fn every_state_round_trips() {
    assert_round_trip(&ToolResult::text("done"));
    let pending = ToolResult::pending("render", "call-1");
    assert_round_trip(&pending);
    assert_eq!(
        read(&stored(&pending)).unwrap().pending_call_id(),
        Some("call-1")
    );
    let deferred = ToolResult::deferred();
    assert_round_trip(&deferred);
    assert!(read(&stored(&deferred)).unwrap().is_deferred());
    let parked = ToolResult::parked("transfer", "call-2");
    assert_round_trip(&parked);
    let read_back = read(&stored(&parked)).unwrap();
    assert!(read_back.awaits_decision());
    assert_eq!(read_back.pending_call_id(), Some("call-2"));
    assert!(
        stored(&parked).ends_with(r#""state":{"parked":"call-2"}}"#),
        "{}",
        stored(&parked)
    );
}

#[test]
fn durations_round_trip_exactly() {
    for after in [
        Duration::ZERO,
        Duration::from_nanos(1),
        Duration::new(1, 123_456_789),
        Duration::from_secs(u64::MAX),
        Duration::MAX,
    ] {
        let result: ToolResult = ToolError::PendingTimeout {
            tool: "render".into(),
            call_id: "call-1".into(),
            after,
        }
        .into();
        assert_round_trip(&result);
    }
}

#[test]
fn media_bytes_are_stored_in_base64() {
    let bytes: Vec<u8> = (0..=255).collect();
    let result = ToolResult::parts([Part::media("application/octet-stream", bytes.clone())]);
    let text = stored(&result);
    assert!(text.contains(&format!(
        r#""data":"{}""#,
        Media::new("x/y", bytes).base64()
    )));
    // 256 bytes take 344 characters of base64, and nothing else grows.
    let empty = stored(&ToolResult::parts([Part::media(
        "application/octet-stream",
        Vec::new(),
    )]));
    assert_eq!(text.len() - empty.len(), 344);
    assert_round_trip(&result);
}

#[test]
fn the_source_of_an_execution_error_is_dropped_and_its_text_kept() {
    let parsed = "x".parse::<i64>().unwrap_err();
    let result: ToolResult = ToolError::Execution {
        tool: "parse".into(),
        message: ErrorMessage::from_error(parsed),
    }
    .into();
    assert!(result.tool_error().unwrap().source().is_some());

    let back = read(&stored(&result)).unwrap();
    let error = back.tool_error().unwrap();
    assert!(error.source().is_none());
    assert_eq!(error.to_string(), "invalid digit found in string");
    // Equal all the same: messages compare by their text alone.
    assert_eq!(back, result);
    let plain: ToolResult = ToolError::Execution {
        tool: "parse".into(),
        message: "invalid digit found in string".into(),
    }
    .into();
    assert_eq!(back, plain);
}

#[test]
fn an_unknown_version_is_refused_by_name() {
    let error = read(r#"{"v":2,"output":{"text":"sunny"}}"#).unwrap_err();
    assert!(error.to_string().contains("version 2"), "{error}");
    assert!(error.to_string().contains("reads version 1"), "{error}");
    // The version is read first, wherever it stands, so a record of
    // another shape is refused for its version, not for its shape.
    for newer in [
        r#"{"output":["another","shape"],"v":7}"#,
        r#"{"outcome":"sunny","v":7}"#,
        r#"{"v":7,"output":["another","shape"]}"#,
    ] {
        let error = read(newer).unwrap_err();
        assert!(error.to_string().contains("version 7"), "{newer}: {error}");
    }
    let error = read(r#"{"output":{"text":"sunny"}}"#).unwrap_err();
    assert!(error.to_string().contains("missing field `v`"), "{error}");
}

#[test]
fn fields_are_read_in_any_order() {
    let read = read(r#"{"state":"deferred","is_error":true,"output":{"text":"x"},"v":1}"#).unwrap();
    assert!(read.is_deferred());
    assert!(read.is_error());
    assert_eq!(read.model_text(), "x");
}

#[test]
fn malformed_records_are_errors() {
    for malformed in [
        "",
        "null",
        "[]",
        "[1]",
        r#""text""#,
        r#"{"v":1}"#,
        r#"{"v":"1","output":{"text":"x"}}"#,
        r#"{"v":-1,"output":{"text":"x"}}"#,
        r#"{"v":1,"v":1,"output":{"text":"x"}}"#,
        r#"{"v":1,"output":{"text":"x"},"output":{"text":"y"}}"#,
        r#"{"v":1,"output":{"text":"x"},"extra":1}"#,
        r#"{"extra":1,"v":1,"output":{"text":"x"}}"#,
        r#"{"v":1,"output":{"html":"x"}}"#,
        r#"{"v":1,"output":{"text":1}}"#,
        r#"{"v":1,"output":{"text":"x","json":1}}"#,
        r#"{"v":1,"output":{"parts":[{"video":{}}]}}"#,
        r#"{"v":1,"output":{"parts":[{"media":{"media_type":"image/png","data":"not base64!"}}]}}"#,
        r#"{"v":1,"output":{"parts":[{"media":{"media_type":"image/png","data":12}}]}}"#,
        r#"{"v":1,"output":{"parts":[{"media":{"media_type":"image/png"}}]}}"#,
        r#"{"v":1,"output":{"parts":[{"link":{"uri":"a","name":"a","size":1}}]}}"#,
        r#"{"v":1,"output":{"text":"x"},"is_error":"yes"}"#,
        r#"{"v":1,"output":{"text":"x"},"error":null}"#,
        r#"{"v":1,"output":{"text":"x"},"error":{"exploded":{"tool":"x"}}}"#,
        r#"{"v":1,"output":{"text":"x"},"error":{"cancelled":{}}}"#,
        r#"{"v":1,"output":{"text":"x"},"error":{"cancelled":{"tool":"x","why":"y"}}}"#,
        r#"{"v":1,"output":{"text":"x"},"error":{"timeout":{"tool":"x","after":30}}}"#,
        r#"{"v":1,"output":{"text":"x"},"error":{"timeout":{"tool":"x","after":{"secs":1,"nanos":1000000000}}}}"#,
        r#"{"v":1,"output":{"text":"x"},"error":{"timeout":{"tool":"x","after":{"secs":18446744073709551616}}}}"#,
        r#"{"v":1,"output":{"text":"x"},"error":{"arguments_too_large":{"tool":"x","size":-1,"limit":1}}}"#,
        r#"{"v":1,"output":{"text":"x"},"state":"running"}"#,
        r#"{"v":1,"output":{"text":"x"},"state":{"pending":1}}"#,
        r#"{"v":1,"output":{"text":"x"},"state":"pending"}"#,
        r#"{"output":{"text":"x"},"state":"nowhere","v":1}"#,
    ] {
        assert!(read(malformed).is_err(), "{malformed} was read");
    }
}

#[test]
fn a_result_inside_a_flattened_tagged_record_round_trips() {
    // The shape a store's own record may take: serde reads the result from
    // its buffered content there, not from the JSON text.
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Record {
        tool: String,
        #[serde(flatten)]
        state: State,
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "state", rename_all = "snake_case")]
    enum State {
        Done { result: ToolResult },
    }
    let timeout: ToolResult = ToolError::Timeout {
        tool: "slow".into(),
        after: Duration::new(2, 5),
    }
    .into();
    for result in [
        ToolResult::parts(every_part()).with_structured_content(json!({"a": 1})),
        timeout,
        ToolResult::pending("render", "call-1"),
    ] {
        let record = Record {
            tool: "render".into(),
            state: State::Done { result },
        };
        let text = serde_json::to_string(&record).unwrap();
        let back: Record = serde_json::from_str(&text).unwrap();
        assert_eq!(back, record);
    }
}

#[test]
fn a_result_returned_by_a_tool_is_itself_not_its_json() {
    use crate::output::result::IntoToolOutput;
    let result = ToolResult::error("city not found");
    assert_eq!(result.clone().into_tool_result("weather"), result);
}
