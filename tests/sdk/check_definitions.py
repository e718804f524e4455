#!/usr/bin/env python3
"""Every tool definition, held to the providers' own SDK models.

Usage: check_definitions.py DEFINITIONS.json
       check_definitions.py --tool-choice CHOICES.json

DEFINITIONS.json maps each provider's name, as `Provider::name` writes it
(`openai`, `openai-strict`, `gemini-openapi`, ...), to that provider's
`tools` value. With `--tool-choice`, CHOICES.json maps each provider's
name to a list of values of its request's `tool_choice` (Gemini's
`toolConfig`), each held to the SDK's type for that field. tests/provider/sdk.rs writes it for the whole corpus and runs
this script with the interpreter of the venv that scripts/test installs
tests/sdk/requirements.txt into.

Prints one line per refusal, `refused: <provider> <tool>: <model>: <where>:
<what>`, then `checked: {"<provider>": <tools checked>, ...}`. Exits 0 when
no model refused anything, 1 when one did, 2 when it cannot check (a
package missing or not at its pinned version, a file it cannot read).

What each check proves:

- Gemini (google-genai): `Tool`, `FunctionDeclaration`, `Schema` and
  `JSONSchema` are pydantic models that forbid unknown fields, so
  validation refuses an unknown keyword at any depth and a value of the
  wrong type. `FunctionDeclaration.parametersJsonSchema` is typed `Any`, so
  it is validated again as the SDK's `JSONSchema`, the model that refuses
  `prefixItems` (docs/providers.md 3.3). The legacy `parameters` is a
  `Schema` inside the declaration.
- MCP (`mcp.types.Tool`): the model ignores unknown fields and types
  `inputSchema` as any object; the round trip below proves that every key
  of the tool and of its annotations is one the SDK knows, with the type it
  expects. The schema's content is left to the Rust suite's check against
  the JSON Schema 2020-12 meta-schema.
- OpenAI (`ChatCompletionToolParam`, `FunctionToolParam`), Groq (its own
  `ChatCompletionToolParam`, whose function has `strict` but no other key
  OpenAI's lacks) and Anthropic (`ToolParam`) are TypedDicts, validated with
  `pydantic.TypeAdapter`, which
  ignores keys a TypedDict does not declare and coerces values (`"yes"` to
  `True`); the round trip proves there were none of either. Their schema
  fields are `Dict[str, object]`: an object, nothing more. Anthropic's
  `input_schema` is also validated as the SDK's `InputSchemaTyped`
  (`type: "object"`, `properties` an object, `required` strings).
- vLLM: its documentation sends tools with OpenAI's client, so its
  definitions are held to OpenAI's `ChatCompletionToolParam`.
- Ollama is not checked here: its Python client's `Tool` model lags behind
  its server's types (no `anyOf`, no nested `properties`), so its round trip
  would drop keys the server reads. tests/provider/schemas.rs holds Ollama's
  definitions to the server's own fields (docs/providers.md 11.2), and
  tests/provider/sdk.rs leaves Ollama out of what it sends here.

The round trip: what the model gives back (`model_dump(by_alias=True,
exclude_unset=True, mode="json")` or the validated TypedDict) must equal
what was sent, key for key and value for value; a key dropped was ignored,
a value changed was coerced.
"""

import json
import re
import sys
from importlib import metadata
from pathlib import Path

REQUIREMENTS = Path(__file__).with_name("requirements.txt")


def pinned_versions_problems():
    """Every package of requirements.txt not installed at its version."""
    installed = {
        normalize(dist.metadata["Name"]): dist.version
        for dist in metadata.distributions()
    }
    problems = []
    for line in REQUIREMENTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, version = line.partition("==")
        have = installed.get(normalize(name))
        if have != version:
            problems.append(f"{name}=={version} (installed: {have or 'none'})")
    return problems


def normalize(name):
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def differences(sent, back, at=""):
    """Where `back` differs from `sent`, as `(where, what)`: keys dropped,
    keys added, values changed."""
    if isinstance(sent, list) and not isinstance(back, (list, str, dict)) and hasattr(back, "__iter__"):
        # An `Iterable` field validates into a lazy iterator: read it.
        back = list(back)
    if isinstance(sent, dict) and isinstance(back, dict):
        for key, value in sent.items():
            where = f"{at}/{key}"
            if key not in back:
                yield where, "ignored (not a field of the model)"
            else:
                yield from differences(value, back[key], where)
        for key in back.keys() - sent.keys():
            yield f"{at}/{key}", "added by the model"
    elif isinstance(sent, list) and isinstance(back, list) and len(sent) == len(back):
        for index, (one, other) in enumerate(zip(sent, back)):
            yield from differences(one, other, f"{at}/{index}")
    elif sent != back or isinstance(sent, bool) != isinstance(back, bool):
        yield at or "/", f"{json.dumps(sent)} read as {json.dumps(back)}"


def pydantic_errors(error):
    """A pydantic `ValidationError` as `(where, what)` pairs."""
    for item in error.errors(include_url=False):
        where = "/" + "/".join(str(part) for part in item["loc"])
        yield where, item["msg"]


class Checker:
    """The SDK models, imported once, and the refusals found so far."""

    def __init__(self):
        import pydantic
        from anthropic.types import (
            ToolParam,
            ToolSearchToolBm25_20251119Param,
            ToolSearchToolRegex20251119Param,
        )
        from anthropic.types.tool_param import InputSchemaTyped
        from google.genai import types as genai
        from groq.types.chat import ChatCompletionToolParam as GroqToolParam
        from mcp import types as mcp
        from openai.types.chat import ChatCompletionToolParam
        from openai.types.responses import FunctionToolParam, ToolSearchToolParam
        from anthropic.types import ToolChoiceParam
        from groq.types.chat import ChatCompletionToolChoiceOptionParam as GroqChoice
        from openai.types.chat import ChatCompletionToolChoiceOptionParam
        from openai.types.responses.response_create_params import ToolChoice

        self.ValidationError = pydantic.ValidationError
        self.genai = genai
        self.mcp_tool = mcp.Tool
        adapter = pydantic.TypeAdapter
        self.typed_dicts = {
            "chat": ("ChatCompletionToolParam", adapter(ChatCompletionToolParam)),
            "responses": ("FunctionToolParam", adapter(FunctionToolParam)),
            "anthropic": ("ToolParam", adapter(ToolParam)),
            "groq": ("groq ChatCompletionToolParam", adapter(GroqToolParam)),
            "input_schema": ("InputSchemaTyped", adapter(InputSchemaTyped)),
            # The tool searches a listing adds (`Listing::search`).
            "tool_search_tool_bm25_20251119": (
                "ToolSearchToolBm25_20251119Param",
                adapter(ToolSearchToolBm25_20251119Param),
            ),
            "tool_search_tool_regex_20251119": (
                "ToolSearchToolRegex20251119Param",
                adapter(ToolSearchToolRegex20251119Param),
            ),
            "tool_search": ("ToolSearchToolParam", adapter(ToolSearchToolParam)),
            # Each request's `tool_choice`.
            "chat_choice": (
                "ChatCompletionToolChoiceOptionParam",
                adapter(ChatCompletionToolChoiceOptionParam),
            ),
            "responses_choice": ("ToolChoice", adapter(ToolChoice)),
            "anthropic_choice": ("ToolChoiceParam", adapter(ToolChoiceParam)),
            "groq_choice": ("groq ChatCompletionToolChoiceOptionParam", adapter(GroqChoice)),
        }
        self.refusals = []

    def refuse(self, provider, tool, model, where, what):
        self.refusals.append(f"{provider} {tool}: {model}: {where}: {what}")

    def model(self, provider, tool, model, value):
        """`value` validated by the pydantic model `model`, and back."""
        try:
            validated = model.model_validate(value)
        except self.ValidationError as error:
            for where, what in pydantic_errors(error):
                self.refuse(provider, tool, model.__name__, where, what)
            return
        back = validated.model_dump(by_alias=True, exclude_unset=True, mode="json")
        for where, what in differences(value, back):
            self.refuse(provider, tool, model.__name__, where, what)

    def typed_dict(self, provider, tool, kind, value):
        """`value` validated as the TypedDict `kind` names, and back."""
        name, adapter = self.typed_dicts[kind]
        try:
            back = adapter.validate_python(value)
        except self.ValidationError as error:
            for where, what in pydantic_errors(error):
                self.refuse(provider, tool, name, where, what)
            return
        for where, what in differences(value, back):
            self.refuse(provider, tool, name, where, what)

    def provider(self, provider, tools):
        """Checks one provider's `tools` value; how many tools it held."""
        if provider in ("gemini", "gemini-openapi"):
            return self.gemini(provider, tools)
        check = {
            "openai": self.chat,
            "openai-strict": self.chat,
            "openai-responses": self.responses,
            "openai-responses-loose": self.responses,
            "anthropic": self.anthropic,
            "anthropic-strict": self.anthropic,
            "mcp": self.mcp,
            "groq": self.groq,
            "vllm": self.chat,
            "vllm-strict": self.chat,
        }.get(provider)
        if check is None:
            self.refuse(provider, "-", "-", "/", "no SDK model known for this provider")
            return 0
        if not isinstance(tools, list):
            self.refuse(provider, "-", "tools", "/", "not a list")
            return 0
        for tool in tools:
            check(provider, tool)
        return len(tools)

    def tool_choice(self, provider, choice):
        """One value of `provider`'s `tool_choice` (Gemini's `toolConfig`)."""
        kind = {
            "openai": "chat_choice",
            "openai-strict": "chat_choice",
            "vllm": "chat_choice",
            "vllm-strict": "chat_choice",
            "openai-responses": "responses_choice",
            "openai-responses-loose": "responses_choice",
            "anthropic": "anthropic_choice",
            "anthropic-strict": "anthropic_choice",
            "groq": "groq_choice",
        }.get(provider)
        if provider in ("gemini", "gemini-openapi"):
            self.model(provider, "toolConfig", self.genai.ToolConfig, choice)
        elif kind is None:
            self.refuse(provider, "-", "-", "/", "no SDK model known for this provider")
        else:
            self.typed_dict(provider, "tool_choice", kind, choice)

    def chat(self, provider, tool):
        name = tool.get("function", {}).get("name", "?")
        self.typed_dict(provider, name, "chat", tool)

    def groq(self, provider, tool):
        name = tool.get("function", {}).get("name", "?")
        self.typed_dict(provider, name, "groq", tool)

    def responses(self, provider, tool):
        if tool.get("type") == "tool_search":
            self.typed_dict(provider, "tool_search", "tool_search", tool)
            return
        self.typed_dict(provider, tool.get("name", "?"), "responses", tool)

    def anthropic(self, provider, tool):
        name = tool.get("name", "?")
        kind = tool.get("type")
        if kind in ("tool_search_tool_bm25_20251119", "tool_search_tool_regex_20251119"):
            self.typed_dict(provider, name, kind, tool)
            return
        self.typed_dict(provider, name, "anthropic", tool)
        self.typed_dict(provider, name, "input_schema", tool.get("input_schema"))

    def mcp(self, provider, tool):
        self.model(provider, tool.get("name", "?"), self.mcp_tool, tool)

    def gemini(self, provider, tools):
        """Gemini's `[{"functionDeclarations": [..]}]`: the `Tool`, then
        each declaration and its JSON Schema."""
        genai = self.genai
        if not isinstance(tools, list) or len(tools) != 1:
            self.refuse(provider, "-", "tools", "/", "not one `Tool`")
            return 0
        # The declarations one by one below, each named.
        declarations = tools[0].get("functionDeclarations", [])
        self.model(provider, "-", genai.Tool, {**tools[0], "functionDeclarations": []})
        for declaration in declarations:
            name = declaration.get("name", "?")
            self.model(provider, name, genai.FunctionDeclaration, declaration)
            schema = declaration.get("parametersJsonSchema")
            if schema is not None:
                self.model(provider, name, genai.JSONSchema, schema)
        return len(declarations)


def main(argv):
    choices = len(argv) == 3 and argv[1] == "--tool-choice"
    if choices:
        argv = [argv[0], argv[2]]
    if len(argv) != 2:
        print(__doc__.split("\n\n", 2)[1], file=sys.stderr)
        return 2
    try:
        checker = Checker()
    except ImportError as error:
        print(
            f"cannot check: {error}; install the SDKs with "
            f"`pip install -r {REQUIREMENTS}`",
            file=sys.stderr,
        )
        return 2
    unpinned = pinned_versions_problems()
    if unpinned:
        print(
            f"cannot check: not the pinned SDKs: {', '.join(unpinned)}; install "
            f"them with `pip install -r {REQUIREMENTS}`",
            file=sys.stderr,
        )
        return 2
    try:
        definitions = json.loads(Path(argv[1]).read_text())
    except (OSError, ValueError) as error:
        print(f"cannot check: {argv[1]}: {error}", file=sys.stderr)
        return 2
    if choices:
        checked = {}
        for provider, values in definitions.items():
            for value in values:
                checker.tool_choice(provider, value)
            checked[provider] = len(values)
    else:
        checked = {
            provider: checker.provider(provider, tools)
            for provider, tools in definitions.items()
        }
    for refusal in checker.refusals:
        print(f"refused: {refusal}")
    print(f"checked: {json.dumps(checked)}")
    return 1 if checker.refusals else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
