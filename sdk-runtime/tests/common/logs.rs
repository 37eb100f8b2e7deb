//! Capturing what a test's code logs (included with `#[path]` by the tests that need it).

use std::future::Future;
use std::sync::{Arc, Mutex};

/// A log sink the tests read back.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `f` and returns its output with the log lines (`WARN` and above) written meanwhile on
/// this thread.
pub(crate) async fn logged<F: Future>(f: F) -> (F::Output, String) {
    let lines = Lines::default();
    let writer = lines.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .with_max_level(tracing::Level::WARN)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let output = f.await;
    let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
    (output, text)
}
