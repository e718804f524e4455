//! The arguments of `#[tool(...)]`, read by hand with `parse_nested_meta`.
//!
//! Each key is read into its slot of [`ToolArgs`]; an unknown key, a key
//! given twice and a value that says something wrong are recorded and
//! parsing goes on, so the user sees every bad argument at once. Rules that
//! need the item too (`context` on a function, `read_only` with
//! `destructive`) are `check`'s.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::{Parse, Parser};
use syn::spanned::Spanned as _;
use syn::{Expr, ExprArray, ExprLit, Ident, Lit, LitBool, LitStr, Path, Token, Type};

use crate::ctxt::Errors;

/// Every key `#[tool(...)]` accepts, in the order the docs list them.
pub(crate) const KEYS: &[&str] = &[
    "name",
    "description",
    "title",
    "schema",
    "output_schema",
    "validate",
    "allow_unknown_arguments",
    "context",
    "crate",
    "tier",
    "timeout",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "concurrency_safe",
    "long_running",
    "tasks_only",
    "asks_first",
    "asks",
    "samples",
    "defer",
    "example",
    "eager_input_streaming",
    "callers",
    "scopes",
    "tags",
];

/// Who may call a tool, as it asked.
#[derive(Clone, Copy)]
pub(crate) enum Callers {
    Model,
    Code,
    ModelAndCode,
}

/// The tier a tool asked for.
#[derive(Clone, Copy)]
pub(crate) enum Tier {
    Observe,
    Confirm,
}

/// `validate = check` or `validate = check(start, end)`.
pub(crate) struct Validate {
    /// The function.
    pub(crate) path: Path,
    /// The names of what it takes, in its order, when the user listed
    /// them; `check` says what each may name.
    pub(crate) names: Option<Vec<Ident>>,
}

/// Where a tool's output schema comes from.
pub(crate) enum OutputSchema {
    /// `output_schema = expr`: written by hand.
    Expr(Expr),
    /// A bare `output_schema`: derived from the return type, at the key's
    /// span.
    Derived(Span),
}

/// A value the user wrote, with the tokens to point errors at.
pub(crate) struct WithSpan<T> {
    pub(crate) value: T,
    pub(crate) span: Span,
}

/// The parsed `#[tool(...)]` arguments; `None` where the user said nothing.
#[derive(Default)]
pub(crate) struct ToolArgs {
    pub(crate) name: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) schema: Option<Expr>,
    pub(crate) output_schema: Option<OutputSchema>,
    /// The tool's own checks of its input, run before the policy checks.
    pub(crate) validate: Option<Validate>,
    /// A struct that reads arguments besides its fields.
    pub(crate) allow_unknown_arguments: Option<WithSpan<bool>>,
    pub(crate) context: Option<Type>,
    pub(crate) krate: Option<Path>,
    pub(crate) tier: Option<WithSpan<Tier>>,
    pub(crate) timeout_ms: Option<WithSpan<u64>>,
    pub(crate) read_only: Option<WithSpan<bool>>,
    pub(crate) destructive: Option<WithSpan<bool>>,
    pub(crate) idempotent: Option<WithSpan<bool>>,
    pub(crate) open_world: Option<WithSpan<bool>>,
    pub(crate) concurrency_safe: Option<WithSpan<bool>>,
    pub(crate) long_running: Option<WithSpan<bool>>,
    /// The tool runs only as a task: a client that cannot follow one is
    /// refused.
    pub(crate) tasks_only: Option<WithSpan<bool>>,
    /// What the tool asks before it first waits on anything else is asked
    /// before its task begins; implies `asks`.
    pub(crate) asks_first: Option<WithSpan<bool>>,
    /// The tool asks the person questions (`ctx.elicit`).
    pub(crate) asks: Option<WithSpan<bool>>,
    /// The tool asks the client's model for completions (`ctx.sample`).
    pub(crate) samples: Option<WithSpan<bool>>,
    pub(crate) defer: Option<WithSpan<bool>>,
    /// Each `example = r#"{..}"#`, in order: the key repeats.
    pub(crate) examples: Vec<LitStr>,
    pub(crate) eager_input_streaming: Option<WithSpan<bool>>,
    pub(crate) callers: Option<WithSpan<Callers>>,
    pub(crate) scopes: Option<Vec<LitStr>>,
    pub(crate) tags: Option<Vec<LitStr>>,
}

/// Parses the arguments, recording every problem in `errors` and going on
/// past it, so that all bad keys are reported at once.
pub(crate) fn parse(args: TokenStream, errors: &mut Errors) -> ToolArgs {
    let mut out = ToolArgs::default();
    let parser = syn::meta::parser(|meta| parse_one(&mut out, &meta, errors));
    if let Err(error) = parser.parse2(args) {
        errors.push(error);
    }
    out
}

/// One `key` or `key = value`. A value that is not even the right kind of
/// tokens is a parse error, which ends the parsing (`?`); a value of the
/// right kind that says something wrong is recorded and parsing goes on.
fn parse_one(
    out: &mut ToolArgs,
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<()> {
    let Some(key) = meta.path.get_ident().map(Ident::to_string) else {
        // some::path = ...
        errors.spanned(&meta.path, unknown_key_message(&path_text(&meta.path)));
        return skip_value(meta);
    };
    let key = key.as_str();
    match key {
        // name = "get_weather"
        "name" => set(&mut out.name, value(meta)?, key, meta, errors),
        // description = "Get the weather."
        "description" => set(&mut out.description, value(meta)?, key, meta, errors),
        // title = "Weather"
        "title" => set(&mut out.title, value(meta)?, key, meta, errors),
        // schema = json!({...})
        "schema" => set(&mut out.schema, value(meta)?, key, meta, errors),
        // output_schema = json!({...})   or   output_schema (from the return type)
        "output_schema" => {
            let schema = if meta.input.peek(Token![=]) {
                OutputSchema::Expr(value(meta)?)
            } else {
                OutputSchema::Derived(meta.path.span())
            };
            set(&mut out.output_schema, schema, key, meta, errors);
        }
        // validate = check_range   or   validate = check_range(start, end, ctx)
        "validate" => {
            if let Some(validate) = validate(meta, errors)? {
                set(&mut out.validate, validate, key, meta, errors);
            }
        }
        // allow_unknown_arguments   or   allow_unknown_arguments = false
        "allow_unknown_arguments" => flag(&mut out.allow_unknown_arguments, key, meta, errors)?,
        // context = App
        "context" => set(&mut out.context, value(meta)?, key, meta, errors),
        // crate = tool_core   or   crate = "tool_core"
        "crate" => set(&mut out.krate, crate_path(meta)?, key, meta, errors),
        // tier = Observe   or   tier = ToolTier::Confirm
        "tier" => {
            if let Some(tier) = tier(meta, errors)? {
                set(&mut out.tier, tier, key, meta, errors);
            }
        }
        // timeout = "10s"
        "timeout" => {
            if let Some(ms) = timeout(meta, errors)? {
                set(&mut out.timeout_ms, ms, key, meta, errors);
            }
        }
        // read_only   or   read_only = false
        "read_only" => flag(&mut out.read_only, key, meta, errors)?,
        // destructive   or   destructive = false
        "destructive" => flag(&mut out.destructive, key, meta, errors)?,
        // idempotent   or   idempotent = false
        "idempotent" => flag(&mut out.idempotent, key, meta, errors)?,
        // open_world   or   open_world = false
        "open_world" => flag(&mut out.open_world, key, meta, errors)?,
        // concurrency_safe   or   concurrency_safe = false
        "concurrency_safe" => flag(&mut out.concurrency_safe, key, meta, errors)?,
        // long_running   or   long_running = false
        "long_running" => flag(&mut out.long_running, key, meta, errors)?,
        // tasks_only   or   tasks_only = false
        "tasks_only" => flag(&mut out.tasks_only, key, meta, errors)?,
        // asks_first   or   asks_first = false
        "asks_first" => flag(&mut out.asks_first, key, meta, errors)?,
        // asks   or   asks = false
        "asks" => flag(&mut out.asks, key, meta, errors)?,
        // samples   or   samples = false
        "samples" => flag(&mut out.samples, key, meta, errors)?,
        // defer   or   defer = false
        "defer" => flag(&mut out.defer, key, meta, errors)?,
        // example = r#"{"city": "Paris"}"#   (once per example)
        "example" => out.examples.push(value(meta)?),
        // eager_input_streaming   or   eager_input_streaming = false
        "eager_input_streaming" => flag(&mut out.eager_input_streaming, key, meta, errors)?,
        // callers = "code"
        "callers" => {
            let lit: LitStr = value(meta)?;
            let callers = match lit.value().as_str() {
                "model" => Some(Callers::Model),
                "code" => Some(Callers::Code),
                "model_and_code" => Some(Callers::ModelAndCode),
                _ => {
                    errors.spanned(
                        &lit,
                        "expected who may call the tool: `\"model\"`, `\"code\"` (code the model runs in the provider's sandbox) or `\"model_and_code\"`",
                    );
                    None
                }
            };
            if let Some(value) = callers {
                let span = lit.span();
                set(
                    &mut out.callers,
                    WithSpan { value, span },
                    key,
                    meta,
                    errors,
                );
            }
        }
        // scopes = ["files:read", "net"]
        "scopes" => set(
            &mut out.scopes,
            strings(meta, "a scope", errors)?,
            key,
            meta,
            errors,
        ),
        // tags = ["github", "write"]
        "tags" => set(
            &mut out.tags,
            strings(meta, "a tag", errors)?,
            key,
            meta,
            errors,
        ),
        // nmae = ...   (anything else)
        _ => {
            errors.spanned(&meta.path, unknown_key_message(key));
            return skip_value(meta);
        }
    }
    Ok(())
}

/// The value after `key =`.
fn value<T: Parse>(meta: &ParseNestedMeta<'_>) -> syn::Result<T> {
    meta.value()?.parse()
}

/// The value of `crate`: a path without generic arguments, bare or in a
/// string as serde writes it.
pub(crate) fn crate_path(meta: &ParseNestedMeta<'_>) -> syn::Result<Path> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        value.parse::<LitStr>()?.parse_with(Path::parse_mod_style)
    } else {
        Path::parse_mod_style(value)
    }
}

/// The value of `validate`: a path, or a path called with the names of
/// what it takes; `None` (reported) for another expression.
fn validate(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<Validate>> {
    const EXPECTED: &str = "expected the function that checks the input: `validate = check`, or with the names of what it takes, `validate = check(start, end)`";
    let expr: Expr = meta.value()?.parse()?;
    let (path, args) = match expr {
        Expr::Path(path) if path.qself.is_none() => (path.path, None),
        Expr::Call(call) => match *call.func {
            Expr::Path(path) if path.qself.is_none() => (path.path, Some(call.args)),
            other => {
                errors.spanned(other, EXPECTED);
                return Ok(None);
            }
        },
        other => {
            errors.spanned(other, EXPECTED);
            return Ok(None);
        }
    };
    let names = args.map(|args| {
        args.into_iter()
            .filter_map(|arg| match arg {
                Expr::Path(path) if path.qself.is_none() && path.path.get_ident().is_some() => {
                    path.path.get_ident().cloned()
                }
                other => {
                    errors.spanned(
                        other,
                        "expected the name of a parameter: `validate = check(start, end)` passes each one named, by reference",
                    );
                    None
                }
            })
            .collect()
    });
    Ok(Some(Validate { path, names }))
}

/// The value of `tier`, read by its last segment; `None` (reported) for a
/// tier that does not exist.
fn tier(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<WithSpan<Tier>>> {
    let path: Path = meta.value()?.parse()?;
    let tier = match path.segments.last().map(|s| s.ident.to_string()).as_deref() {
        Some("Observe") => Tier::Observe,
        Some("Confirm") => Tier::Confirm,
        _ => {
            errors.spanned(&path, "unknown tier; expected `Observe` or `Confirm`");
            return Ok(None);
        }
    };
    Ok(Some(WithSpan {
        value: tier,
        span: path.span(),
    }))
}

/// The value of `timeout` in milliseconds; `None` (reported) for a duration
/// that cannot be read.
fn timeout(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Option<WithSpan<u64>>> {
    let lit: LitStr = meta.value()?.parse()?;
    match parse_duration_ms(&lit.value()) {
        Ok(ms) => Ok(Some(WithSpan {
            value: ms,
            span: lit.span(),
        })),
        Err(why) => {
            errors.spanned(&lit, format!("invalid timeout {:?}: {why}", lit.value()));
            Ok(None)
        }
    }
}

/// The value of `scopes` or `tags`: the non-empty string literals among
/// its elements, every other element reported as not being `what`.
fn strings(
    meta: &ParseNestedMeta<'_>,
    what: &str,
    errors: &mut Errors,
) -> syn::Result<Vec<LitStr>> {
    let array: ExprArray = meta.value()?.parse()?;
    let mut strings = Vec::new();
    for element in &array.elems {
        match element {
            Expr::Lit(ExprLit {
                lit: Lit::Str(string),
                ..
            }) if !string.value().is_empty() => strings.push(string.clone()),
            other => errors.spanned(other, format!("{what} is a non-empty string literal")),
        }
    }
    Ok(strings)
}

fn unknown_key_message(key: &str) -> String {
    let expected: Vec<String> = KEYS.iter().map(|k| format!("`{k}`")).collect();
    format!(
        "unknown `#[tool]` argument `{key}`; expected one of: {}",
        expected.join(", ")
    )
}

pub(crate) fn path_text(path: &Path) -> String {
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    segments.join("::")
}

/// Stores a key's value, or reports that the key came twice.
fn set<T>(
    slot: &mut Option<T>,
    value: T,
    key: &str,
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) {
    if slot.is_some() {
        errors.spanned(&meta.path, format!("duplicate `#[tool]` argument `{key}`"));
    } else {
        *slot = Some(value);
    }
}

/// A boolean key: bare (`read_only`) means true; `read_only = false` too.
fn flag(
    slot: &mut Option<WithSpan<bool>>,
    key: &str,
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<()> {
    let value = if meta.input.peek(Token![=]) {
        let lit: LitBool = meta.value()?.parse()?;
        WithSpan {
            value: lit.value,
            span: lit.span,
        }
    } else {
        WithSpan {
            value: true,
            span: meta.path.span(),
        }
    };
    set(slot, value, key, meta, errors);
    Ok(())
}

/// Consumes `= value` or `(...)` after a key that is reported already.
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// `"500ms"`, `"10s"`, `"2m"`, `"1h"` as milliseconds.
pub(crate) fn parse_duration_ms(text: &str) -> Result<u64, &'static str> {
    const EXPECTED: &str =
        "expected a whole number and a unit, like \"500ms\", \"10s\", \"2m\" or \"1h\"";
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = text.split_at(digits);
    let number: u64 = number.parse().map_err(|_| EXPECTED)?;
    let scale = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        _ => return Err(EXPECTED),
    };
    match number.checked_mul(scale) {
        Some(0) => Err("a timeout must be longer than zero"),
        Some(ms) => Ok(ms),
        None => Err("that is too long"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse_ok(tokens: TokenStream) -> ToolArgs {
        let mut errors = Errors::default();
        let args = parse(tokens, &mut errors);
        if let Err(error) = errors.finish() {
            panic!("unexpected error: {error}");
        }
        args
    }

    fn parse_err(tokens: TokenStream) -> Vec<String> {
        let mut errors = Errors::default();
        parse(tokens, &mut errors);
        match errors.finish() {
            Ok(()) => panic!("expected an error"),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn every_key() {
        let args = parse_ok(quote! {
            name = "n", description = "d", title = "t", schema = json!({}), output_schema = s(),
            context = App, crate = ::my_core, tier = ToolTier::Observe, timeout = "1500ms",
            read_only, destructive = false, idempotent, open_world = false, concurrency_safe,
            long_running, asks, scopes = ["a", "b"]
        });
        assert_eq!(args.asks.map(|a| a.value), Some(true));
        assert_eq!(args.name.map(|n| n.value()).as_deref(), Some("n"));
        assert!(matches!(args.tier.map(|t| t.value), Some(Tier::Observe)));
        assert_eq!(args.timeout_ms.map(|t| t.value), Some(1500));
        assert_eq!(args.destructive.map(|d| d.value), Some(false));
        assert_eq!(args.read_only.map(|d| d.value), Some(true));
        assert_eq!(args.scopes.map(|s| s.len()), Some(2));
        assert!(args.krate.is_some() && args.context.is_some() && args.schema.is_some());
    }

    #[test]
    fn reports_every_bad_key_at_once() {
        let messages = parse_err(quote!(
            nmae = "x",
            read_only,
            read_only,
            timeout = "soon",
            tier = Maybe
        ));
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert!(messages[0].starts_with(
            "unknown `#[tool]` argument `nmae`; expected one of: `name`, `description`"
        ));
        assert_eq!(messages[1], "duplicate `#[tool]` argument `read_only`");
        assert!(
            messages[2].starts_with("invalid timeout \"soon\": expected a whole number and a unit")
        );
        assert_eq!(messages[3], "unknown tier; expected `Observe` or `Confirm`");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms("10s"), Ok(10_000));
        assert_eq!(parse_duration_ms("2m"), Ok(120_000));
        assert_eq!(parse_duration_ms("1h"), Ok(3_600_000));
        assert_eq!(parse_duration_ms("250ms"), Ok(250));
        assert!(parse_duration_ms("0s").is_err());
        assert!(parse_duration_ms("1.5s").is_err());
        assert!(parse_duration_ms("s").is_err());
        assert!(parse_duration_ms("10").is_err());
    }
}
