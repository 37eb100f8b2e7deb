//! Where the plugin's executable is: next to the host's own (both are built into the same target
//! directory). Under `cargo run` a missing one is built first.

use std::path::PathBuf;

pub(crate) fn plugin_executable() -> Result<PathBuf, String> {
    let host = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let plugin = host.with_file_name(format!("toolhook-example-isolated{}", std::env::consts::EXE_SUFFIX));
    if plugin.is_file() {
        return Ok(plugin);
    }
    // `cargo run` says which cargo runs us; build the plugin with it.
    let cargo = std::env::var_os("CARGO").ok_or_else(|| {
        format!("{} is missing: build it with `cargo build -p toolhook-example-isolated`", plugin.display())
    })?;
    eprintln!("building the plugin: cargo build -p toolhook-example-isolated");
    let built = std::process::Command::new(cargo)
        .args(["build", "-q", "-p", "toolhook-example-isolated", "--bin", "toolhook-example-isolated"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if built.success() && plugin.is_file() { Ok(plugin) } else { Err("building the plugin failed".into()) }
}
