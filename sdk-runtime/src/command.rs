//! Tools as chat commands: a pattern per tool, parsing a message into typed
//! arguments, and help texts.

use crate::registry::ToolRegistry;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use toolhook::__private::CommandRegistration;
use toolhook::args::parse_lenient_bool;
use toolhook::{
    Locale, PermissionLevel, ToolAvailabilityContext, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolSpec, ToolSpecError,
};

/// How a command token is converted into a JSON argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// As is (a string).
    Text,
    /// An `i64`.
    Integer,
    /// A finite `f64`.
    Number,
    /// The lenient boolean words.
    Boolean,
    /// Comma-separated items, each converted by the item kind.
    List(ListItem),
    /// A JSON object.
    Json,
    /// The rest of the line, raw and trimmed (only last).
    Rest,
}

/// The item kind of a list token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListItem {
    /// Strings.
    Text,
    /// Integers.
    Integer,
    /// Numbers.
    Number,
    /// Booleans.
    Boolean,
}

impl TokenKind {
    /// The name in a pattern: `text`, `integer`, `number`, `boolean`, `list`, `json`, `rest`.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::Text => "text",
            TokenKind::Integer => "integer",
            TokenKind::Number => "number",
            TokenKind::Boolean => "boolean",
            TokenKind::List(_) => "list",
            TokenKind::Json => "json",
            TokenKind::Rest => "rest",
        }
    }

    fn of_schema(schema: &Value) -> TokenKind {
        match schema.get("type").and_then(Value::as_str) {
            Some("integer") => TokenKind::Integer,
            Some("number" | "float") => TokenKind::Number,
            Some("boolean") => TokenKind::Boolean,
            Some("object") => TokenKind::Json,
            Some("array") => {
                TokenKind::List(match schema.get("items").and_then(|i| i.get("type")).and_then(Value::as_str) {
                    Some("integer") => ListItem::Integer,
                    Some("number" | "float") => ListItem::Number,
                    Some("boolean") => ListItem::Boolean,
                    _ => ListItem::Text,
                })
            }
            _ => TokenKind::Text,
        }
    }

    fn convert(self, token: &str) -> Option<Value> {
        match self {
            TokenKind::Text | TokenKind::Rest => Some(Value::from(token)),
            TokenKind::Integer => token.trim().parse::<i64>().ok().map(Value::from),
            TokenKind::Number => token.trim().parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::from),
            TokenKind::Boolean => parse_lenient_bool(token).map(Value::Bool),
            TokenKind::Json => serde_json::from_str::<Value>(token).ok().filter(Value::is_object),
            TokenKind::List(item) => {
                let kind = match item {
                    ListItem::Text => TokenKind::Text,
                    ListItem::Integer => TokenKind::Integer,
                    ListItem::Number => TokenKind::Number,
                    ListItem::Boolean => TokenKind::Boolean,
                };
                token
                    .split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .map(|item| kind.convert(item))
                    .collect::<Option<Vec<Value>>>()
                    .map(Value::Array)
            }
        }
    }
}

/// One parameter slot of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Slot {
    name: String,
    kind: TokenKind,
    required: bool,
}

impl Slot {
    fn shown(&self) -> String {
        format!("<{}:{}>", self.name, self.kind.as_str())
    }
}

/// Why a message does not fit a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// A required argument is missing.
    #[error("Missing argument {slot}. Usage: {pattern}")]
    Missing {
        /// `<name:type>`.
        slot: String,
        /// The command's pattern.
        pattern: String,
    },
    /// More tokens than the pattern takes.
    #[error("Too many arguments. Usage: {pattern}")]
    TooMany {
        /// The command's pattern.
        pattern: String,
    },
    /// A token that does not convert to its parameter's type.
    #[error("Invalid value for {slot}: {token}. Usage: {pattern}")]
    BadValue {
        /// `<name:type>`.
        slot: String,
        /// The token.
        token: String,
        /// The command's pattern.
        pattern: String,
    },
    /// A `"` without its closing `"`.
    #[error("Unclosed quotation mark. Usage: {pattern}")]
    Quote {
        /// The command's pattern.
        pattern: String,
    },
}

impl CommandError {
    /// The error text in a locale (English is also the `Display` form).
    pub fn message(&self, locale: Locale) -> String {
        match (self, locale) {
            (_, Locale::En) => self.to_string(),
            (CommandError::Missing { slot, pattern }, Locale::ZhHans) => format!("缺少参数 {slot}。用法：{pattern}"),
            (CommandError::TooMany { pattern }, Locale::ZhHans) => format!("参数过多。用法：{pattern}"),
            (CommandError::BadValue { slot, token, pattern }, Locale::ZhHans) => {
                format!("参数 {slot} 的值无效：{token}。用法：{pattern}")
            }
            (CommandError::Quote { pattern }, Locale::ZhHans) => format!("引号未闭合。用法：{pattern}"),
        }
    }
}

/// A tool exposed as a chat command: its pattern, aliases, usage lines and examples.
///
/// ```
/// use toolhook::{ToolParamType, ToolParameterInfo, ToolSpec};
/// use toolhook_runtime::CommandSpec;
///
/// let spec = ToolSpec::builder("weather")
///     .parameters(vec![
///         ToolParameterInfo::new("days", ToolParamType::Integer).required(false),
///         ToolParameterInfo::new("city", ToolParamType::String),
///     ])
///     .build()?;
/// let command = CommandSpec::from_tool(&spec).alias("天气");
/// assert_eq!(command.pattern_text(), "weather <city:text> [days:integer]");
/// let args = command.parse("天气 \"New York\" 3")?.unwrap();
/// assert_eq!(serde_json::Value::Object(args), serde_json::json!({"city": "New York", "days": 3}));
/// assert_eq!(command.parse("forecast x")?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CommandSpec {
    name: String,
    aliases: Vec<String>,
    pattern: String,
    slots: Vec<Slot>,
    usage: Vec<String>,
    examples: Vec<String>,
    tool: ToolSpec,
}

impl CommandSpec {
    /// The command of a tool: the tool's name, its required parameters as `<name:type>` then its
    /// optional ones as `[name:type]`, each group in declaration order. The last one, when it is
    /// text, takes the rest of the message (`rest`), so free text needs no quotes.
    pub fn from_tool(spec: &ToolSpec) -> CommandSpec {
        let schema = spec.parameters_schema();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut slots = Vec::new();
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            for pass in [true, false] {
                for (name, prop) in properties {
                    let is_required = required.contains(&name.as_str());
                    if is_required == pass {
                        slots.push(Slot {
                            name: name.clone(),
                            kind: TokenKind::of_schema(prop),
                            required: is_required,
                        });
                    }
                }
            }
        }
        // A trailing text parameter takes the rest of the message: `note call mum` needs no quotes.
        if let Some(last) = slots.last_mut()
            && last.kind == TokenKind::Text
        {
            last.kind = TokenKind::Rest;
        }
        let mut command = CommandSpec {
            name: spec.name().to_owned(),
            aliases: Vec::new(),
            pattern: String::new(),
            slots,
            usage: Vec::new(),
            examples: Vec::new(),
            tool: spec.clone(),
        };
        command.pattern = command.render_pattern();
        command
    }

    pub(crate) fn from_registration(
        spec: &ToolSpec,
        registration: &CommandRegistration,
    ) -> Result<CommandSpec, ToolSpecError> {
        let mut command = CommandSpec::from_tool(spec);
        if let Some(pattern) = registration.pattern {
            command = command.pattern(pattern)?;
        }
        command.aliases = registration.aliases.iter().map(|a| (*a).to_owned()).collect();
        command.usage = registration.usage.iter().map(|a| (*a).to_owned()).collect();
        command.examples = registration.examples.iter().map(|a| (*a).to_owned()).collect();
        Ok(command)
    }

    fn render_pattern(&self) -> String {
        let mut parts = vec![self.name.clone()];
        for slot in &self.slots {
            let (open, close) = if slot.required { ('<', '>') } else { ('[', ']') };
            parts.push(format!("{open}{}:{}{close}", slot.name, slot.kind.as_str()));
        }
        parts.join(" ")
    }

    /// A custom pattern: the command name, then `<name:type>` / `[name:type]` tokens naming the
    /// tool's parameters (types `text`, `integer`, `number`, `boolean`, `list`, `json`, and `rest`
    /// for the rest of the line, only last). Every required parameter must appear as `<…>`; a
    /// pattern that breaks a rule is an error naming the token.
    pub fn pattern(mut self, pattern: &str) -> Result<CommandSpec, ToolSpecError> {
        let tool = self.name.clone();
        let schema = self.tool.parameters_schema().clone();
        let properties = schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        let required: Vec<String> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        let error = |parameter: &str, token: &str, reason: String| ToolSpecError::CommandToken {
            tool: tool.clone(),
            parameter: parameter.to_owned(),
            token: token.to_owned(),
            reason,
        };
        let mut words = pattern.split_whitespace();
        if words.next() != Some(tool.as_str()) {
            return Err(error("", pattern, format!("a command pattern starts with the command name `{tool}`")));
        }
        let words: Vec<&str> = words.collect();
        let mut slots = Vec::new();
        for (i, word) in words.iter().enumerate() {
            let is_required = word.starts_with('<') && word.ends_with('>');
            let is_optional = word.starts_with('[') && word.ends_with(']');
            let Some((name, ty)) =
                (is_required || is_optional).then(|| word[1..word.len() - 1].split_once(':')).flatten()
            else {
                return Err(error("", word, "expected `<name:type>` or `[name:type]`".into()));
            };
            let Some(prop) = properties.get(name) else {
                return Err(error(name, word, format!("`{tool}` has no parameter `{name}`")));
            };
            let natural = TokenKind::of_schema(prop);
            let kind = match ty {
                "rest" if i + 1 == words.len() && natural == TokenKind::Text => TokenKind::Rest,
                "rest" => return Err(error(name, word, "`rest` is for a string parameter, last".into())),
                other if other == natural.as_str() => natural,
                other => {
                    return Err(error(
                        name,
                        word,
                        format!("the parameter takes `{}`, not `{other}`", natural.as_str()),
                    ));
                }
            };
            if required.iter().any(|r| r == name) && is_optional {
                return Err(error(name, word, format!("`{name}` is required; write `<{name}:{ty}>`")));
            }
            slots.push(Slot { name: name.to_owned(), kind, required: is_required });
        }
        for name in &required {
            if !slots.iter().any(|s| s.name == *name && s.required) {
                return Err(error(
                    name,
                    pattern,
                    format!("the required parameter `{name}` must appear as `<{name}:…>`"),
                ));
            }
        }
        self.slots = slots;
        self.pattern = pattern.split_whitespace().collect::<Vec<_>>().join(" ");
        Ok(self)
    }

    /// Adds an alias (another first word that calls the command).
    pub fn alias(mut self, alias: impl Into<String>) -> Self {
        self.aliases.push(alias.into());
        self
    }

    /// Adds a usage line for the help text.
    pub fn usage(mut self, line: impl Into<String>) -> Self {
        self.usage.push(line.into());
        self
    }

    /// Adds an example for the help text.
    pub fn example(mut self, example: impl Into<String>) -> Self {
        self.examples.push(example.into());
        self
    }

    /// The command's name (the tool's).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its aliases.
    pub fn aliases(&self) -> &[String] {
        &self.aliases
    }

    /// Its pattern, e.g. `weather <city:text> [days:integer]`.
    pub fn pattern_text(&self) -> &str {
        &self.pattern
    }

    /// Its usage lines.
    pub fn usage_lines(&self) -> &[String] {
        &self.usage
    }

    /// Its examples.
    pub fn examples(&self) -> &[String] {
        &self.examples
    }

    /// The tool it calls.
    pub fn tool(&self) -> &ToolSpec {
        &self.tool
    }

    /// Parses a message (without the host's prefix such as `/`): `Ok(None)` when the first word
    /// is not this command or an alias; the given arguments when it is.
    ///
    /// The message is tokenised first, so one with an unclosed quote is
    /// [`CommandError::Quote`] whichever command it names. ([`CommandSet::run`] looks at the
    /// first word before it tokenises: a message that names none of its commands is not a
    /// command error there.)
    pub fn parse(&self, text: &str) -> Result<Option<Map<String, Value>>, CommandError> {
        let tokens = tokenize(text).ok_or_else(|| CommandError::Quote { pattern: self.pattern.clone() })?;
        self.parse_tokens(&tokens, text)
    }

    /// Whether `word` is the command's name or one of its aliases.
    fn answers_to(&self, word: &str) -> bool {
        word == self.name || self.aliases.iter().any(|a| a == word)
    }

    /// [`parse`](Self::parse) over a message tokenised once.
    fn parse_tokens(&self, tokens: &[Token], text: &str) -> Result<Option<Map<String, Value>>, CommandError> {
        let Some((first, rest)) = tokens.split_first() else { return Ok(None) };
        if !self.answers_to(&first.text) {
            return Ok(None);
        }
        // Assign tokens to slots left to right; then check what is missing or left over; then
        // convert.
        let mut assigned: Vec<(&Slot, String)> = Vec::new();
        let mut next = 0;
        for slot in &self.slots {
            match rest.get(next) {
                Some(token) if slot.kind == TokenKind::Rest => {
                    assigned.push((slot, text[token.start..].trim().to_owned()));
                    next = rest.len();
                }
                Some(token) => {
                    assigned.push((slot, token.text.clone()));
                    next += 1;
                }
                None if slot.required => {
                    return Err(CommandError::Missing { slot: slot.shown(), pattern: self.pattern.clone() });
                }
                None => {}
            }
        }
        if next < rest.len() {
            return Err(CommandError::TooMany { pattern: self.pattern.clone() });
        }
        let mut arguments = Map::new();
        for (slot, token) in assigned {
            let value = slot.kind.convert(&token).ok_or_else(|| CommandError::BadValue {
                slot: slot.shown(),
                // A message can be megabytes long; the reply quotes only the start of the token.
                token: crate::routes::shown(&token).into_owned(),
                pattern: self.pattern.clone(),
            })?;
            arguments.insert(slot.name.clone(), value);
        }
        Ok(Some(arguments))
    }

    /// The help text of this command.
    pub fn help(&self, locale: Locale) -> String {
        let zh = locale == Locale::ZhHans;
        let mut lines = vec![self.pattern.clone()];
        let description = self.tool.description(locale).trim();
        if !description.is_empty() {
            lines.push(format!("  {description}"));
        }
        if !self.slots.is_empty() {
            lines.push(if zh { "  参数：" } else { "  Parameters:" }.to_owned());
            let schema = self.tool.parameters_schema_for(locale);
            for slot in &self.slots {
                let prop = &schema["properties"][&slot.name];
                let ty = prop.get("type").and_then(Value::as_str).unwrap_or("string");
                let description = prop.get("description").and_then(Value::as_str).unwrap_or("").trim();
                let line = match (zh, slot.required) {
                    (false, true) => format!("    {}: {ty} (required)", slot.name),
                    (false, false) => format!("    {}: {ty} (optional)", slot.name),
                    (true, true) => format!("    {}：{ty}（必填）", slot.name),
                    (true, false) => format!("    {}：{ty}（可选）", slot.name),
                };
                lines.push(match (description.is_empty(), zh) {
                    (true, _) => line,
                    (false, false) => format!("{line} {description}"),
                    (false, true) => format!("{line}{description}"),
                });
            }
        }
        let join = |items: &[String]| items.join(if zh { "、" } else { ", " });
        if !self.aliases.is_empty() {
            lines.push(format!("  {}{}", if zh { "别名：" } else { "Aliases: " }, join(&self.aliases)));
        }
        if self.tool.permission() > PermissionLevel::User {
            lines.push(format!("  {}{}", if zh { "权限：" } else { "Permission: " }, self.tool.permission()));
        }
        if !self.tool.platforms().is_empty() {
            lines.push(format!("  {}{}", if zh { "平台：" } else { "Platforms: " }, join(self.tool.platforms())));
        }
        if !self.tool.scopes().is_empty() {
            let scopes: Vec<String> = self.tool.scopes().iter().map(ToString::to_string).collect();
            lines.push(format!("  {}{}", if zh { "场景：" } else { "Scopes: " }, join(&scopes)));
        }
        for (title_en, title_zh, items) in [("Usage:", "用法：", &self.usage), ("Examples:", "示例：", &self.examples)]
        {
            if !items.is_empty() {
                lines.push(format!("  {}", if zh { title_zh } else { title_en }));
                lines.extend(items.iter().map(|item| format!("    {item}")));
            }
        }
        lines.join("\n")
    }
}

struct Token {
    text: String,
    start: usize,
}

/// Splits on Unicode whitespace; `"…"` is one token with `\"` and `\\` escapes. `None` for an
/// unclosed quote.
fn tokenize(text: &str) -> Option<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut token = String::new();
        if c == '"' {
            chars.next();
            let mut closed = false;
            while let Some((_, c)) = chars.next() {
                match c {
                    '\\' => match chars.peek() {
                        Some(&(_, escaped @ ('"' | '\\'))) => {
                            token.push(escaped);
                            chars.next();
                        }
                        _ => token.push('\\'),
                    },
                    '"' => {
                        closed = true;
                        break;
                    }
                    c => token.push(c),
                }
            }
            if !closed {
                return None;
            }
        } else {
            while let Some(&(_, c)) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                token.push(c);
                chars.next();
            }
        }
        tokens.push(Token { text: token, start });
    }
    Some(tokens)
}

/// The commands a host serves, run through its registry (so access rules, timeouts and argument
/// decoding apply exactly as for model calls).
#[derive(Clone, Debug)]
pub struct CommandSet {
    registry: ToolRegistry,
    commands: BTreeMap<String, CommandSpec>,
    /// Every name and alias → the command it runs (the first command in name order wins).
    words: HashMap<String, String>,
}

/// What running a message as a command gave.
#[derive(Clone, Debug, PartialEq)]
pub enum CommandReply {
    /// The message fit a command; the tool ran (or failed).
    Ran(ToolExecutionResult),
    /// The message named a command but its arguments do not fit.
    Invalid(CommandError),
}

impl CommandReply {
    /// The reply text: a result's history content (a failure's error message, else its history
    /// content), or the command error.
    pub fn text(&self, locale: Locale) -> String {
        match self {
            CommandReply::Ran(result) if !result.success && !result.error_message.is_empty() => {
                result.error_message.clone()
            }
            CommandReply::Ran(result) => result.history_content(locale),
            CommandReply::Invalid(error) => error.message(locale),
        }
    }
}

impl CommandSet {
    /// An empty set over a registry.
    pub fn new(registry: &ToolRegistry) -> Self {
        CommandSet { registry: registry.clone(), commands: BTreeMap::new(), words: HashMap::new() }
    }

    /// Adds a command; one with the same name is replaced.
    pub fn insert(&mut self, command: CommandSpec) {
        self.commands.insert(command.name.clone(), command);
        self.words.clear();
        for command in self.commands.values() {
            for word in std::iter::once(&command.name).chain(&command.aliases) {
                self.words.entry(word.clone()).or_insert_with(|| command.name.clone());
            }
        }
    }

    /// Adds commands.
    pub fn extend(&mut self, commands: impl IntoIterator<Item = CommandSpec>) {
        for command in commands {
            self.insert(command);
        }
    }

    /// Runs a message (without the host's prefix) as a command: `None` when it names none.
    ///
    /// The first word picks the command; only then is the message tokenised, once.
    pub async fn run(&self, text: &str, ctx: &ToolExecutionContext) -> Option<CommandReply> {
        let first = text.split_whitespace().next()?;
        let command = match self.words.get(first) {
            Some(name) => &self.commands[name],
            // A quoted first word is only known once the message is tokenised.
            None if first.starts_with('"') => {
                let tokens = tokenize(text)?;
                let name = self.words.get(&tokens.first()?.text)?;
                return self
                    .run_parsed(&self.commands[name], self.commands[name].parse_tokens(&tokens, text), ctx)
                    .await;
            }
            None => return None,
        };
        self.run_parsed(command, command.parse(text), ctx).await
    }

    async fn run_parsed(
        &self,
        command: &CommandSpec,
        parsed: Result<Option<Map<String, Value>>, CommandError>,
        ctx: &ToolExecutionContext,
    ) -> Option<CommandReply> {
        match parsed {
            Ok(None) => None,
            Ok(Some(arguments)) => {
                let call = ToolInvocation::new(command.name.clone(), Value::Object(arguments));
                Some(CommandReply::Ran(self.registry.invoke(call, Some(ctx)).await))
            }
            Err(error) => Some(CommandReply::Invalid(error)),
        }
    }

    /// The commands available in a context (their tools are listed for it), one line each.
    pub async fn help(&self, ctx: &ToolExecutionContext, locale: Locale) -> String {
        let availability = ToolAvailabilityContext::from(ctx);
        let mut lines = Vec::new();
        for command in self.commands.values() {
            if !self.registry.has_tool(&command.name, Some(&availability)).await {
                continue;
            }
            let description = command.tool.description(locale).trim();
            lines.push(if description.is_empty() {
                format!("  {}", command.pattern)
            } else {
                format!("  {} - {description}", command.pattern)
            });
        }
        if lines.is_empty() {
            return if locale == Locale::ZhHans { "当前没有可用的命令。" } else { "No commands available." }.to_owned();
        }
        lines.insert(0, if locale == Locale::ZhHans { "可用命令：" } else { "Commands:" }.to_owned());
        lines.join("\n")
    }
}
