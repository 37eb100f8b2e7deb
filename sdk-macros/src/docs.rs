//! Doc comments as model-visible text.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of `///`, `/** */` and `#[doc = "…"]` attributes: one leading space removed per line,
/// lines joined with `\n`.
pub(crate) fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        let Meta::NameValue(nv) = &attr.meta else { continue };
        let Expr::Lit(ExprLit { lit: Lit::Str(text), .. }) = &nv.value else { continue };
        for line in text.value().split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line);
            lines.push(line.strip_prefix(' ').unwrap_or(line).to_owned());
        }
    }
    lines
}

/// Paragraphs: runs of non-blank lines.
fn paragraphs(lines: &[String]) -> Vec<Vec<&str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in lines {
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A fn's doc comment split into the brief candidate (first paragraph, lines trimmed and joined
/// with a space) and the detailed candidate (the other paragraphs, trailing whitespace removed, one
/// blank line between them, trimmed).
pub(crate) struct FnDocs {
    pub(crate) brief: String,
    pub(crate) detailed: String,
}

pub(crate) fn fn_docs(attrs: &[Attribute]) -> FnDocs {
    let lines = doc_lines(attrs);
    let paragraphs = paragraphs(&lines);
    let brief =
        paragraphs.first().map(|p| p.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ")).unwrap_or_default();
    let detailed = paragraphs
        .iter()
        .skip(1)
        .map(|p| p.iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n"))
        .collect::<Vec<_>>()
        .join("\n\n")
        .trim()
        .to_owned();
    FnDocs { brief, detailed }
}

/// A parameter's doc comment: lines trimmed and joined with a space, paragraphs joined with a blank
/// line. `None` without any doc.
pub(crate) fn param_docs(attrs: &[Attribute]) -> Option<String> {
    let lines = doc_lines(attrs);
    if lines.is_empty() {
        return None;
    }
    let text = paragraphs(&lines)
        .iter()
        .map(|p| p.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n");
    Some(text)
}
