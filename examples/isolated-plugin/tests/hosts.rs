//! The two host examples run to the end and show what they promise.

use std::process::Command;

fn run(program: &str) -> String {
    let output = Command::new(program).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{program} failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

#[test]
fn isolated_host_survives_the_plugin_being_killed() {
    let out = run(env!("CARGO_BIN_EXE_isolated-host"));
    let lines: Vec<&str> = out.lines().collect();
    let pids: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("the plugin runs as process ")).collect();
    assert_eq!(pids.len(), 2, "{out}");
    assert_ne!(pids[0], pids[1], "a new process after the kill");
    assert!(
        lines.contains(&"the call in flight: error: MCP tool 'slow_echo' failed: MCP server 'isolated' stopped before answering; try again shortly")
    );
    assert!(lines.contains(&"a call meanwhile: error: MCP server 'isolated' is not connected"));
    assert_eq!(lines.last(), Some(&"a call now: hello again"));
}

#[test]
fn hot_reload_loses_no_call() {
    let out = run(env!("CARGO_BIN_EXE_hot-reload"));
    let summary = out.lines().last().unwrap();
    assert!(summary.contains(" calls, 0 lost or wrong, served by 3 processes in turn"), "{out}");
}
