//! A provider tool-core does not ship, added as its user would add it: the
//! made-up "Parrot" API, whose model sends `{"say": .., "actions": [{"ref",
//! "do", "with"}]}` and takes the results back as one `{"role": "results",
//! "items": [{"ref", "ok" | "failed"}]}` message.
//!
//! Prints, one JSON value a line: the definitions, the calls parsed, the
//! turn's reply and text, a turn with an unknown tool and bad arguments,
//! then the texts of a response that is not Parrot's, of a tool choice
//! Parrot does not take, of a name it refuses and of its stream;
//! `tests/outside_crates.rs` checks each.

use serde_json::{Value, json};
use tool_core::provider::{
    Blocker, Family, ListState, Parameters, Provider, ProviderCall, ToolChoice,
};
use tool_core::registry::ToolInfo;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// The Parrot API.
struct Parrot;

impl Family for Parrot {
    fn name(&self) -> &'static str {
        "parrot"
    }

    fn api(&self) -> &'static str {
        "Parrot"
    }

    fn response_kind(&self) -> &'static str {
        "Parrot reply"
    }

    /// Parrot repeats names aloud: it takes none with a digit.
    fn check_name(&self, name: &str) -> Result<(), &'static str> {
        if name.bytes().any(|b| b.is_ascii_digit()) {
            return Err("Parrot cannot say digits");
        }
        Ok(())
    }

    fn parameters(
        &self,
        tool: &ToolInfo<'_>,
        _list: &mut ListState,
    ) -> Result<Parameters, Vec<Blocker>> {
        Ok(Parameters::plain(tool.definition.input_schema.clone()))
    }

    fn definition(&self, tool: &ToolInfo<'_>, parameters: &mut Parameters) -> Value {
        json!({
            "tool": tool.definition.name,
            "about": tool.definition.description,
            "takes": parameters.schema.take(),
        })
    }

    fn parse_calls(&self, response: &Value) -> Result<Vec<ProviderCall>, String> {
        let actions = match response.get("actions") {
            None => return Ok(Vec::new()),
            Some(Value::Array(actions)) => actions,
            Some(_) => return Err("`actions` is not an array".to_owned()),
        };
        actions
            .iter()
            .enumerate()
            .map(|(at, action)| {
                let name = action["do"]
                    .as_str()
                    .ok_or_else(|| format!("action {at} has no `do`"))?;
                let id = action["ref"].as_str().map(str::to_owned);
                Ok(ProviderCall::new(id, name, action["with"].clone()))
            })
            .collect()
    }

    fn model_turn(&self, response: &Value) -> Result<Vec<Value>, String> {
        Ok(vec![json!({"role": "parrot", "say": response["say"]})])
    }

    fn texts<'t>(&self, item: &'t Value, texts: &mut Vec<&'t str>) {
        texts.extend(item["say"].as_str());
    }

    fn format_results(
        &self,
        answered: &mut dyn Iterator<Item = (&ProviderCall, &ToolResult)>,
    ) -> Vec<Value> {
        let items: Vec<Value> = answered
            .map(|(call, result)| {
                let outcome = if result.is_error() { "failed" } else { "ok" };
                json!({"ref": call.id(), outcome: result.model_text()})
            })
            .collect();
        vec![json!({"role": "results", "items": items})]
    }

    fn tool_choice(&self, choice: &ToolChoice) -> Result<Option<Value>, String> {
        match choice {
            ToolChoice::Auto => Ok(None),
            _ => Err("a parrot says what it likes".to_owned()),
        }
    }
}

static PARROT: Parrot = Parrot;

/// Add two numbers.
#[tool(read_only)]
fn add(
    /// The first.
    a: i64,
    /// The second.
    b: i64,
) -> i64 {
    a + b
}

/// A tool whose name Parrot cannot say.
#[tool(name = "add2")]
fn add_two(a: i64) -> i64 {
    a + 2
}

#[tokio::main]
async fn main() {
    let parrot = Provider::custom(&PARROT);
    let registry: ToolRegistry = ToolRegistry::new().with(Add);
    let ctx = ToolContext::new(());
    let show = |value: &Value| println!("{}", serde_json::to_string(value).unwrap());

    show(parrot.definitions(&registry).unwrap().as_json());

    let response = json!({"say": "Adding.", "actions": [
        {"ref": "r1", "do": "add", "with": {"a": 2, "b": 3}},
        {"ref": "r2", "do": "add", "with": {"a": 40, "b": 2}}
    ]});
    let calls = parrot.parse_calls(&response).unwrap();
    show(&json!(
        calls
            .iter()
            .map(|call| json!([call.id(), call.name(), call.arguments()]))
            .collect::<Vec<_>>()
    ));

    let turn = parrot.respond(&registry, &ctx, &response).await.unwrap();
    show(&json!(turn.reply()));
    show(&json!(turn.text()));

    let wrong = json!({"say": "Oops.", "actions": [
        {"ref": "r3", "do": "subtract", "with": {}},
        {"ref": "r4", "do": "add", "with": {"a": "two"}}
    ]});
    let turn = parrot.respond(&registry, &ctx, &wrong).await.unwrap();
    show(&json!(turn.reply()));

    show(&json!(
        parrot
            .parse_calls(&json!({"actions": "none"}))
            .unwrap_err()
            .to_string()
    ));
    show(&json!(
        parrot
            .tool_choice(&ToolChoice::Required)
            .unwrap_err()
            .to_string()
    ));
    let refused = ToolRegistry::<()>::new().with(AddTwo);
    show(&json!(parrot.definitions(&refused).unwrap_err().to_string()));
    show(&json!(
        parrot
            .stream_reader()
            .feed(b"data: {}\n\n")
            .unwrap_err()
            .to_string()
    ));
}
