//! A value that is none of a unit enum's variants gets the list of the
//! variants, whether or not they are documented (schemars writes a
//! documented variant as a `const` of its own, in a `oneOf`): the model
//! reads what it may send, not that its value "matches none of the allowed
//! forms".

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::{ToolContext, ToolRegistry, tool};

/// How soon.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Priority {
    /// When there is time.
    Low,
    /// This week.
    Normal,
    /// Today.
    High,
}

/// A colour, two variants documented and one not.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Label {
    /// Something is broken.
    BugReport,
    /// Something is missing.
    FeatureRequest,
    Question,
}

/// File an issue.
#[tool(tier = Observe)]
fn file_issue(
    /// How soon.
    priority: Priority,
    /// The kind of issue, none when left out.
    label: Option<Label>,
) -> String {
    format!("{priority:?} {label:?}")
}

async fn call(arguments: Value) -> String {
    let registry = ToolRegistry::new().with(FileIssue);
    let result = registry
        .call(&ToolContext::new(()), "file_issue", arguments)
        .await;
    assert!(result.is_error());
    result.model_text().to_string()
}

#[tokio::test]
async fn a_documented_unit_enum_lists_its_variants() {
    assert_eq!(
        call(json!({"priority": "urgent"})).await,
        "invalid arguments for tool `file_issue`: argument `priority` at `/priority`: expected one of `low`, `normal`, `high`, got `urgent`. Correct the arguments and call the tool again."
    );
}

#[tokio::test]
async fn an_optional_enum_partly_documented_lists_them_all() {
    assert_eq!(
        call(json!({"priority": "low", "label": "bug"})).await,
        "invalid arguments for tool `file_issue`: argument `label` at `/label`: expected one of `QUESTION`, `BUG_REPORT`, `FEATURE_REQUEST`, got `bug`. Correct the arguments and call the tool again."
    );
}
