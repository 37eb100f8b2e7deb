//! Access rules a tool may carry: who may call it, on which platforms, in which chats.

use std::fmt;
use std::str::FromStr;

/// The caller's rank, lowest to highest: `User < GroupAdmin < GroupOwner < BotAdmin < Owner`.
///
/// A tool with a permission level is listed and invocable only for callers at that level or above.
///
/// ```
/// use toolhook::PermissionLevel;
///
/// assert!(PermissionLevel::BotAdmin > PermissionLevel::GroupOwner);
/// assert_eq!("group_admin".parse::<PermissionLevel>(), Ok(PermissionLevel::GroupAdmin));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PermissionLevel {
    /// Anyone (the default).
    #[default]
    User,
    /// An administrator of the group the message came from.
    GroupAdmin,
    /// The owner of the group the message came from.
    GroupOwner,
    /// An administrator of the bot.
    BotAdmin,
    /// The bot's owner.
    Owner,
}

impl PermissionLevel {
    /// The accepted spellings, lowest level first.
    pub const NAMES: [&'static str; 5] = ["user", "group_admin", "group_owner", "bot_admin", "owner"];

    /// The serde name, e.g. `"bot_admin"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            PermissionLevel::User => "user",
            PermissionLevel::GroupAdmin => "group_admin",
            PermissionLevel::GroupOwner => "group_owner",
            PermissionLevel::BotAdmin => "bot_admin",
            PermissionLevel::Owner => "owner",
        }
    }
}

impl fmt::Display for PermissionLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing an unknown [`PermissionLevel`] or [`ChatScope`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{value}`; expected one of: {allowed}")]
pub struct ParseAccessError {
    pub(crate) kind: &'static str,
    pub(crate) value: String,
    pub(crate) allowed: &'static str,
}

impl FromStr for PermissionLevel {
    type Err = ParseAccessError;

    /// Exact serde names, surrounding whitespace ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "user" => Ok(PermissionLevel::User),
            "group_admin" => Ok(PermissionLevel::GroupAdmin),
            "group_owner" => Ok(PermissionLevel::GroupOwner),
            "bot_admin" => Ok(PermissionLevel::BotAdmin),
            "owner" => Ok(PermissionLevel::Owner),
            _ => Err(ParseAccessError {
                kind: "permission level",
                value: s.to_owned(),
                allowed: "user, group_admin, group_owner, bot_admin, owner",
            }),
        }
    }
}

/// The kind of chat a call comes from. A tool with scopes is available only in those chats.
///
/// ```
/// use toolhook::ChatScope;
///
/// assert_eq!("group".parse::<ChatScope>(), Ok(ChatScope::Group));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatScope {
    /// A one-to-one chat.
    Private,
    /// A group chat.
    Group,
    /// A broadcast channel.
    Channel,
}

impl ChatScope {
    /// The accepted spellings.
    pub const NAMES: [&'static str; 3] = ["private", "group", "channel"];

    /// The serde name, e.g. `"group"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChatScope::Private => "private",
            ChatScope::Group => "group",
            ChatScope::Channel => "channel",
        }
    }
}

impl fmt::Display for ChatScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ChatScope {
    type Err = ParseAccessError;

    /// Exact serde names, surrounding whitespace ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "private" => Ok(ChatScope::Private),
            "group" => Ok(ChatScope::Group),
            "channel" => Ok(ChatScope::Channel),
            _ => Err(ParseAccessError { kind: "chat scope", value: s.to_owned(), allowed: "private, group, channel" }),
        }
    }
}
