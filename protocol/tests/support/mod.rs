//! What the protocol's tests read from `protocol/README.md`: the document, and the JSON examples
//! of its command and event tables.

/// The protocol document.
pub const README: &str = include_str!("../../README.md");
/// The roll the tables' `<Roll>` placeholder stands for.
pub const ROLL: &str = r#"{"expr":"2d8+4","dice":[{"sides":8,"face":6,"kept":true},{"sides":8,"face":3,"kept":true}],"modifier":4,"total":13}"#;

/// The JSON examples in the last column of the tables of a README section (up to the next
/// `###`), with `<Roll>` filled in; examples with an ellipsis are left out.
pub fn table_examples(section: &str) -> Vec<String> {
    let Some(start) = README.find(section) else {
        panic!("no section {section}");
    };
    let body = &README[start + section.len()..];
    let end = body.find("\n### ").unwrap_or(body.len());
    body[..end]
        .lines()
        .filter(|l| l.starts_with('|'))
        .filter_map(|l| {
            let cell = l.rsplit('|').nth(1)?.trim();
            let json = cell.strip_prefix('`')?.strip_suffix('`')?;
            (!json.contains('…')).then(|| json.replace("<Roll>", ROLL))
        })
        .collect()
}
