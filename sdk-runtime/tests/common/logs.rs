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
#[allow(dead_code)]
pub(crate) async fn logged<F: Future>(f: F) -> (F::Output, String) {
    logged_at(tracing::Level::WARN, f).await
}

/// [`logged`] with the lines at `level` and above.
pub(crate) async fn logged_at<F: Future>(level: tracing::Level, f: F) -> (F::Output, String) {
    let lines = Lines::default();
    let writer = lines.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .without_time()
        .with_max_level(level)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let output = f.await;
    let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
    (output, text)
}

/// Whether `text` holds CJK ideographs or full-width / CJK punctuation (a log line should not).
#[allow(dead_code)]
pub(crate) fn has_cjk(text: &str) -> bool {
    text.chars().any(|c| matches!(c, '\u{3000}'..='\u{303F}' | '\u{4E00}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}'))
}
