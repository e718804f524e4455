//! Composing sets of tools: the rules of `Compose`, each as the model and
//! the application see it, and merging registries.

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::registry::RegistryBuilder;
use tool_core::registry::{RegistryError, Validation};
use tool_core::toolset::Compose;
use tool_core::{ToolContext, ToolRegistry, tool};

/// Open an issue in a repository.
#[tool]
fn create_issue(owner: String, repo: String, title: String) -> String {
    format!("{owner}/{repo}: {title}")
}

/// List the issues of a repository.
#[tool(read_only)]
fn list_issues(owner: String, repo: String) -> String {
    format!("issues of {owner}/{repo}")
}

/// Delete a repository.
#[tool(destructive)]
fn delete_repo(owner: String, repo: String) -> String {
    format!("deleted {owner}/{repo}")
}

/// Export the issues, in the background.
#[tool(long_running)]
async fn export_issues(repo: String) -> String {
    repo
}

fn github() -> ToolRegistry {
    ToolRegistry::new()
        .with(CreateIssue)
        .with(ListIssues)
        .with(DeleteRepo)
}

fn names(registry: &ToolRegistry) -> Vec<&str> {
    registry.names().collect()
}

async fn call(registry: &ToolRegistry, name: &str, args: Value) -> String {
    registry
        .call(&ToolContext::new(()), name, args)
        .await
        .model_text()
        .into_owned()
}

#[tokio::test]
async fn a_prefix_and_a_rename_give_every_tool_its_new_name_only() {
    let rules = Compose::new().prefix("gh_").rename("list_issues", "issues");
    let registry = rules.apply(github()).unwrap();
    assert_eq!(
        names(&registry),
        ["gh_create_issue", "gh_issues", "gh_delete_repo"]
    );
    let args = json!({"owner": "acme", "repo": "app"});
    assert_eq!(
        call(&registry, "gh_issues", args.clone()).await,
        "issues of acme/app"
    );
    assert_eq!(
        call(&registry, "list_issues", args).await,
        "unknown tool `list_issues`. Available tools: `gh_create_issue`, `gh_issues`, `gh_delete_repo`."
    );
    // An error the tool's reading makes names the tool as the model knows it.
    assert_eq!(
        call(&registry, "gh_issues", json!({"owner": "acme"})).await,
        "invalid arguments for tool `gh_issues`: missing argument `repo`. Correct the arguments and call the tool again."
    );
}

#[test]
fn filters_keep_by_name_and_by_what_a_tool_says_of_itself() {
    let allowed = Compose::new()
        .allow(["create_issue", "list_issues"])
        .apply(github())
        .unwrap();
    assert_eq!(names(&allowed), ["create_issue", "list_issues"]);

    let denied = Compose::new()
        .deny(["delete_repo"])
        .apply(github())
        .unwrap();
    assert_eq!(names(&denied), ["create_issue", "list_issues"]);

    let reading = Compose::new()
        .keep_if(|tool| tool.metadata.read_only)
        .apply(github())
        .unwrap();
    assert_eq!(names(&reading), ["list_issues"]);

    let both = Compose::new()
        .keep_if(|tool| tool.metadata.destructive)
        .keep_if(|tool| tool.definition.name.starts_with("delete"))
        .apply(github())
        .unwrap();
    assert_eq!(names(&both), ["delete_repo"]);
}

#[tokio::test]
async fn a_bound_argument_is_hidden_from_the_model_and_given_to_the_tool() {
    let registry = Compose::new()
        .bind("create_issue", "owner", json!("acme"))
        .apply(github())
        .unwrap();
    let schema = &registry
        .info("create_issue")
        .unwrap()
        .definition
        .input_schema;
    assert_eq!(schema["required"], json!(["repo", "title"]));
    assert_eq!(
        schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["repo", "title"]
    );
    // Every provider's definitions are made from what the model may see.
    let openai = Provider::OpenAiChat { strict: true }
        .definitions(&registry)
        .unwrap();
    let tools = openai.as_json();
    let create = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["function"]["name"] == "create_issue")
        .unwrap();
    assert_eq!(
        create["function"]["parameters"]["required"],
        json!(["repo", "title"])
    );

    assert_eq!(
        call(
            &registry,
            "create_issue",
            json!({"repo": "app", "title": "Crash"})
        )
        .await,
        "acme/app: Crash"
    );
    // As a JSON string too (OpenAI's arguments), which is read as a value.
    assert_eq!(
        call(
            &registry,
            "create_issue",
            json!(r#"{"repo": "app", "title": "Crash"}"#)
        )
        .await,
        "acme/app: Crash"
    );
    assert_eq!(
        call(
            &registry,
            "create_issue",
            json!({"owner": "evil", "repo": "app", "title": "Crash"})
        )
        .await,
        "invalid arguments for tool `create_issue`: unknown argument `owner`; expected one of `repo`, `title`. Correct the arguments and call the tool again."
    );
    // Unchecked, the tool's start refuses it all the same.
    let unchecked = Compose::new()
        .bind("create_issue", "owner", json!("acme"))
        .apply(
            RegistryBuilder::from(github())
                .validation(Validation::Off)
                .build(),
        )
        .unwrap();
    assert_eq!(
        call(
            &unchecked,
            "create_issue",
            json!({"owner": "evil", "repo": "app", "title": "Crash"})
        )
        .await,
        "invalid arguments for tool `create_issue`: argument `owner` at `/owner`: the application sets this argument; leave it out. Correct the arguments and call the tool again."
    );
    // A model's mistake is still said of the arguments it was shown.
    assert_eq!(
        call(&registry, "create_issue", json!({"repo": "app"})).await,
        "invalid arguments for tool `create_issue`: missing argument `title`. Correct the arguments and call the tool again."
    );
}

#[tokio::test]
async fn bound_arguments_are_checked_with_the_tools_own_schema_under_every_validation() {
    for validation in [Validation::Auto, Validation::Always, Validation::Off] {
        let registry = Compose::new()
            .bind("create_issue", "owner", json!("acme"))
            .bind("create_issue", "repo", json!("app"))
            .apply(
                RegistryBuilder::from(github())
                    .validation(validation)
                    .build(),
            )
            .unwrap();
        assert_eq!(
            call(&registry, "create_issue", json!({"title": "Crash"})).await,
            "acme/app: Crash",
            "{validation:?}"
        );
        // Binding again keeps what was bound before.
        let again = Compose::new()
            .rename("create_issue", "open_issue")
            .apply(registry)
            .unwrap();
        assert_eq!(
            call(&again, "open_issue", json!({"title": "Again"})).await,
            "acme/app: Again",
            "{validation:?}"
        );
    }
}

#[test]
fn a_new_description_replaces_the_old_and_keeps_what_a_long_running_tool_says() {
    let registry: ToolRegistry = ToolRegistry::new().with(CreateIssue).with(ExportIssues);
    let described = Compose::new()
        .describe("create_issue", "Open an issue in acme's tracker.")
        .describe("export_issues", "Export every issue.")
        .apply(registry)
        .unwrap();
    assert_eq!(
        described
            .info("create_issue")
            .unwrap()
            .definition
            .description,
        "Open an issue in acme's tracker."
    );
    let export = &described
        .info("export_issues")
        .unwrap()
        .definition
        .description;
    assert!(
        export.starts_with("Export every issue.\n\nThis tool runs in the background"),
        "{export}"
    );
}

#[test]
fn a_rule_that_cannot_be_applied_names_the_tool_and_why() {
    let error = |rules: Compose| rules.apply(github()).unwrap_err().to_string();
    assert_eq!(
        error(Compose::new().rename("list_issue", "issues")),
        "tool `list_issue` cannot be composed so: a rule names it, but there is no tool of that name; `Compose::lenient` allows that"
    );
    assert_eq!(
        error(Compose::new().bind("create_issue", "org", json!("acme"))),
        "tool `create_issue` cannot be composed so: it has no argument `org`"
    );
    assert_eq!(
        error(Compose::new().prefix("github.")),
        "tool `create_issue` cannot be composed so: its new name `github.create_issue` is not a valid tool name: it has a character other than an ASCII letter, digit, `_` or `-`"
    );
    assert_eq!(
        Compose::new()
            .rename("create_issue", "issue")
            .rename("list_issues", "issue")
            .apply(github())
            .unwrap_err(),
        RegistryError::DuplicateName {
            name: "issue".into()
        }
    );
    // Lenient rules skip the names that are not there.
    let lenient = Compose::new()
        .rename("list_issue", "issues")
        .deny(["no_such_tool"])
        .lenient()
        .apply(github())
        .unwrap();
    assert_eq!(
        names(&lenient),
        ["create_issue", "list_issues", "delete_repo"]
    );
}

#[tokio::test]
async fn merging_adds_the_other_registrys_tools_under_this_ones_settings() {
    let mut registry: ToolRegistry = ToolRegistry::builder()
        .with(ExportIssues)
        .validation(Validation::Always)
        .build();
    let mut other = RegistryBuilder::from(github())
        .validation(Validation::Off)
        .build();
    assert!(other.disable("delete_repo"));
    registry.merge(other).unwrap();
    assert_eq!(
        names(&registry),
        ["export_issues", "create_issue", "list_issues"]
    );
    // Disabled there, disabled here: not listed, and enabled again.
    assert!(registry.info("delete_repo").is_none());
    assert!(registry.enable("delete_repo"));
    assert!(registry.disable("delete_repo"));
    // Checked against the schema: this registry's `Always`, not `Off`.
    assert_eq!(
        call(&registry, "list_issues", json!({"owner": 1, "repo": "app"})).await,
        "invalid arguments for tool `list_issues`: argument `owner` at `/owner`: expected a string, got an integer `1`. Correct the arguments and call the tool again."
    );

    // A name both hold: an error, and nothing of the other is added.
    let clash: ToolRegistry = ToolRegistry::new().with(ExportIssues).with(CreateIssue);
    assert_eq!(
        registry.merge(clash).unwrap_err(),
        RegistryError::DuplicateName {
            name: "export_issues".into()
        }
    );
    assert_eq!(
        names(&registry),
        ["export_issues", "create_issue", "list_issues"]
    );
    // A disabled tool's name is taken too.
    let disabled_clash: ToolRegistry = ToolRegistry::new().with(DeleteRepo);
    assert_eq!(
        registry.merge(disabled_clash).unwrap_err(),
        RegistryError::DuplicateName {
            name: "delete_repo".into()
        }
    );
}
