//! A prompt, and a server's prompts: each got by name with its
//! arguments.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::BoxFuture;
use crate::tool::context::ToolContext;
use crate::tool::message::PromptMessage;

/// The arguments a prompt is got with: each a string, by name.
pub type PromptArguments = BTreeMap<String, String>;

/// A message template a client offers its user (MCP's `prompts/get`):
/// given its arguments, the messages to start a conversation with.
///
/// Implement it for a prompt made at run time; `Ctx` is the state of the
/// [`ToolContext`] it is got in, as a tool's.
pub trait Prompt<Ctx = ()>: Send + Sync + 'static {
    /// Its name.
    fn name(&self) -> &str;

    /// What it is for.
    fn description(&self) -> &str;

    /// The arguments it takes. Default: none.
    fn arguments(&self) -> Vec<PromptArgument> {
        Vec::new()
    }

    /// Its messages, given `arguments` (each required one there: checked
    /// before).
    fn get<'a>(
        &'a self,
        ctx: &'a ToolContext<Ctx>,
        arguments: &'a PromptArguments,
    ) -> BoxFuture<'a, Result<Vec<PromptMessage>, PromptError>>;

    /// The values `argument` may take that begin with `prefix`, for a
    /// client completing it (MCP's `completion/complete`), at most a
    /// hundred. Default: none known.
    fn complete(&self, argument: &str, prefix: &str) -> Vec<String> {
        let _ = (argument, prefix);
        Vec::new()
    }
}

/// One argument of a prompt: its name, what it is, and whether it must be
/// given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// What it is, for the person filling it in.
    pub description: Option<String>,
    /// Whether the prompt needs it.
    pub required: bool,
}

impl PromptArgument {
    /// A required argument.
    pub fn required(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: Some(description.into()).filter(|text: &String| !text.is_empty()),
            required: true,
        }
    }

    /// An argument that may be left out.
    pub fn optional(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            required: false,
            ..Self::required(name, description)
        }
    }
}

/// Why a prompt could not be got.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PromptError {
    /// No prompt has this name (MCP: -32602).
    Unknown {
        /// The name asked for.
        name: String,
        /// The names there are.
        available: Vec<String>,
    },
    /// A required argument was not given (MCP: -32602).
    MissingArgument {
        /// The prompt.
        prompt: String,
        /// The argument.
        argument: String,
    },
    /// An argument's value cannot be read (MCP: -32602).
    InvalidArgument {
        /// The prompt.
        prompt: String,
        /// The argument.
        argument: String,
        /// Why.
        reason: String,
    },
    /// Making the messages failed.
    Failed {
        /// The prompt.
        prompt: String,
        /// What went wrong, for the client.
        message: String,
    },
}

impl fmt::Display for PromptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromptError::Unknown { name, available } => {
                write!(f, "no prompt is named `{name}`")?;
                if available.is_empty() {
                    write!(f, "; there are no prompts")
                } else {
                    write!(f, "; the prompts are `{}`", available.join("`, `"))
                }
            }
            PromptError::MissingArgument { prompt, argument } => {
                write!(f, "prompt `{prompt}` needs the argument `{argument}`")
            }
            PromptError::InvalidArgument {
                prompt,
                argument,
                reason,
            } => write!(f, "prompt `{prompt}`: argument `{argument}`: {reason}"),
            PromptError::Failed { prompt, message } => {
                write!(f, "prompt `{prompt}` failed: {message}")
            }
        }
    }
}

impl std::error::Error for PromptError {}

/// A server's prompts, in the order added, each got by its name.
pub struct Prompts<Ctx = ()> {
    prompts: Vec<Arc<dyn Prompt<Ctx>>>,
}

impl<Ctx> Default for Prompts<Ctx> {
    fn default() -> Self {
        Self {
            prompts: Vec::new(),
        }
    }
}

impl<Ctx> Clone for Prompts<Ctx> {
    fn clone(&self) -> Self {
        Self {
            prompts: self.prompts.clone(),
        }
    }
}

/// Why a prompt cannot be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicatePrompt(pub String);

impl fmt::Display for DuplicatePrompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a prompt named `{}` is there already", self.0)
    }
}

impl std::error::Error for DuplicatePrompt {}

impl<Ctx: 'static> Prompts<Ctx> {
    /// No prompts.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a prompt, builder style.
    ///
    /// # Panics
    ///
    /// When its name is another's already: a mistake in the program.
    /// [`Prompts::register`] returns it as an error instead.
    #[must_use]
    #[track_caller]
    pub fn with(mut self, prompt: impl Prompt<Ctx>) -> Self {
        if let Err(error) = self.register(prompt) {
            panic!("{error}");
        }
        self
    }

    /// Adds a prompt; a name that is another's already is an error.
    pub fn register(&mut self, prompt: impl Prompt<Ctx>) -> Result<(), DuplicatePrompt> {
        if self.get(prompt.name()).is_some() {
            return Err(DuplicatePrompt(prompt.name().to_owned()));
        }
        self.prompts.push(Arc::new(prompt));
        Ok(())
    }

    /// The prompts, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = &dyn Prompt<Ctx>> {
        self.prompts.iter().map(|prompt| &**prompt)
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.prompts.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.prompts.is_empty()
    }

    /// The prompt named `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Prompt<Ctx>> {
        self.iter().find(|prompt| prompt.name() == name)
    }

    /// The messages of the prompt `name`, given `arguments`: an error when
    /// there is no such prompt or a required argument is missing.
    pub async fn messages(
        &self,
        ctx: &ToolContext<Ctx>,
        name: &str,
        arguments: &PromptArguments,
    ) -> Result<Vec<PromptMessage>, PromptError> {
        let Some(prompt) = self.get(name) else {
            return Err(PromptError::Unknown {
                name: name.to_owned(),
                available: self.iter().map(|prompt| prompt.name().to_owned()).collect(),
            });
        };
        if let Some(missing) = prompt
            .arguments()
            .into_iter()
            .find(|argument| argument.required && !arguments.contains_key(&argument.name))
        {
            return Err(PromptError::MissingArgument {
                prompt: name.to_owned(),
                argument: missing.name,
            });
        }
        prompt.get(ctx, arguments).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_says_what_to_do() {
        let unknown = PromptError::Unknown {
            name: "reveiw".into(),
            available: vec!["review".into(), "summary".into()],
        };
        assert_eq!(
            unknown.to_string(),
            "no prompt is named `reveiw`; the prompts are `review`, `summary`"
        );
        let none = PromptError::Unknown {
            name: "x".into(),
            available: vec![],
        };
        assert_eq!(
            none.to_string(),
            "no prompt is named `x`; there are no prompts"
        );
        let invalid = PromptError::InvalidArgument {
            prompt: "review".into(),
            argument: "lines".into(),
            reason: "`many` is not a number".into(),
        };
        assert_eq!(
            invalid.to_string(),
            "prompt `review`: argument `lines`: `many` is not a number"
        );
        assert_eq!(
            DuplicatePrompt("review".into()).to_string(),
            "a prompt named `review` is there already"
        );
        assert_eq!(
            PromptArgument::optional("focus", "").description,
            None,
            "an empty description is none"
        );
    }
}
