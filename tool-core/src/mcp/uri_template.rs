//! Resource URI templates (RFC 6570) read backwards: which template a requested URI fits,
//! and what each variable holds. Two expressions are supported, the ones resource servers
//! use: `{name}` (simple expansion: one or more characters, none of them `/`, `?`, `#` or
//! `&`) and `{+name}` (reserved expansion: any characters, `/` included). The crates on the
//! registry expand templates; none matches a URI against one, which is what a server needs.

use percent_encoding::percent_decode_str;

/// A parsed URI template.
#[derive(Debug, Clone)]
pub(super) struct UriTemplate {
    text: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone)]
enum Part {
    Literal(String),
    Variable { name: String, reserved: bool },
}

impl UriTemplate {
    /// Parses `text`; what is wrong with it, if anything.
    pub(super) fn parse(text: &str) -> Result<UriTemplate, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let Some(close) = rest[open..].find('}') else {
                return Err(format!("the template {text:?} opens a `{{` it never closes"));
            };
            let expression = &rest[open + 1..open + close];
            let (name, reserved) = match expression.strip_prefix('+') {
                Some(name) => (name, true),
                None => (expression, false),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!(
                    "`{{{expression}}}` in {text:?} is not supported: write `{{name}}` or `{{+name}}`, a name of letters, digits and `_`"
                ));
            }
            if matches!(parts.last(), Some(Part::Variable { .. })) {
                return Err(format!("in {text:?} two variables touch: put a literal between them"));
            }
            parts.push(Part::Variable { name: name.to_owned(), reserved });
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(UriTemplate { text: text.to_owned(), parts })
    }

    /// Whether the text has variables (a template), or is one URI.
    pub(super) fn is_template(&self) -> bool {
        self.parts.iter().any(|part| matches!(part, Part::Variable { .. }))
    }

    /// The template's text.
    pub(super) fn as_str(&self) -> &str {
        &self.text
    }

    /// The variables' names, in order.
    pub(super) fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The variables' values when `uri` fits the template, percent-decoded.
    pub(super) fn matches(&self, uri: &str) -> Option<Vec<(String, String)>> {
        let mut values = Vec::new();
        let mut rest = uri;
        let mut parts = self.parts.iter().peekable();
        while let Some(part) = parts.next() {
            match part {
                Part::Literal(literal) => rest = rest.strip_prefix(literal.as_str())?,
                Part::Variable { name, reserved } => {
                    // A variable runs to the next literal (variables never touch), or to the end.
                    let end = match parts.peek() {
                        Some(Part::Literal(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let raw = &rest[..end];
                    let forbidden: &[char] = if *reserved { &[] } else { &['/', '?', '#', '&'] };
                    if raw.is_empty() || raw.contains(forbidden) {
                        return None;
                    }
                    let value = percent_decode_str(raw).decode_utf8().ok()?;
                    values.push((name.clone(), value.into_owned()));
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(values)
    }
}

#[cfg(test)]
mod tests {
    use super::UriTemplate;

    fn pairs(values: &[(&str, &str)]) -> Vec<(String, String)> {
        values.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned())).collect()
    }

    #[test]
    fn a_uri_is_matched_and_its_values_decoded() {
        let template = UriTemplate::parse("test://template/{id}/data").unwrap();
        assert!(template.is_template());
        assert_eq!(template.matches("test://template/123/data"), Some(pairs(&[("id", "123")])));
        assert_eq!(template.matches("test://template/a%20b/data"), Some(pairs(&[("id", "a b")])));
        assert_eq!(template.matches("test://template//data"), None);
        assert_eq!(template.matches("test://template/1/2/data"), None);
        assert_eq!(template.matches("test://template/1/data/more"), None);
        let reserved = UriTemplate::parse("file:///{+path}").unwrap();
        assert_eq!(reserved.matches("file:///a/b.txt"), Some(pairs(&[("path", "a/b.txt")])));
        let two = UriTemplate::parse("users://{user}/posts/{post}").unwrap();
        assert_eq!(two.variables().collect::<Vec<_>>(), ["user", "post"]);
        assert_eq!(two.matches("users://ann/posts/7"), Some(pairs(&[("user", "ann"), ("post", "7")])));
        assert!(!UriTemplate::parse("memory://graph").unwrap().is_template());
    }

    #[test]
    fn what_cannot_be_matched_is_refused_with_the_form_to_write() {
        for (text, says) in [
            ("a://{id", "never closes"),
            ("a://{?q}", "`{name}` or `{+name}`"),
            ("a://{x}{y}", "touch"),
            ("a://{}", "not supported"),
        ] {
            let error = UriTemplate::parse(text).unwrap_err();
            assert!(error.contains(says), "{text}: {error}");
        }
    }
}
