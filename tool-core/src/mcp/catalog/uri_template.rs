//! Resource URI templates (RFC 6570) read backwards: which template a requested URI fits,
//! and what each variable holds. Two expressions are supported, the ones resource servers
//! use: `{name}` (simple expansion: one or more characters, none of them `/`, `?`, `#` or
//! `&`) and `{+name}` (reserved expansion: any characters, `/` included). The crates on the
//! registry expand templates; none matches a URI against one, which is what a server needs.
//! A template is matched as an anchored regular expression (`regex`), so a value may hold
//! the literal that follows its variable (`repo://{+path}/raw` reads `a/raw/b/raw`).

use percent_encoding::percent_decode_str;

/// A parsed URI template.
#[derive(Debug, Clone)]
pub(in crate::mcp) struct UriTemplate {
    text: String,
    parts: Vec<Part>,
    /// The whole URI, one group per variable.
    pattern: regex::Regex,
}

#[derive(Debug, Clone)]
enum Part {
    Literal(String),
    Variable { name: String, reserved: bool },
}

impl UriTemplate {
    /// Parses `text`; what is wrong with it, if anything.
    pub(in crate::mcp) fn parse(text: &str) -> Result<UriTemplate, String> {
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
        let pattern: String = parts
            .iter()
            .map(|part| match part {
                Part::Literal(literal) => regex::escape(literal),
                Part::Variable { reserved: true, .. } => "(.+)".to_owned(),
                Part::Variable { reserved: false, .. } => "([^/?#&]+)".to_owned(),
            })
            .collect();
        let pattern = regex::Regex::new(&format!("^{pattern}$")).map_err(|error| error.to_string())?;
        Ok(UriTemplate { text: text.to_owned(), parts, pattern })
    }

    /// Whether the text has variables (a template), or is one URI.
    pub(in crate::mcp) fn is_template(&self) -> bool {
        self.parts.iter().any(|part| matches!(part, Part::Variable { .. }))
    }

    /// The template's text.
    pub(in crate::mcp) fn as_str(&self) -> &str {
        &self.text
    }

    /// The variables' names, in order.
    pub(in crate::mcp) fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The variables' values when `uri` fits the template, percent-decoded.
    pub(in crate::mcp) fn matches(&self, uri: &str) -> Option<Vec<(String, String)>> {
        let found = self.pattern.captures(uri)?;
        self.variables()
            .zip(found.iter().skip(1))
            .map(|(name, value)| {
                let value = percent_decode_str(value?.as_str()).decode_utf8().ok()?;
                Some((name.to_owned(), value.into_owned()))
            })
            .collect()
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
        // A value may hold the literal that follows it.
        let raw = UriTemplate::parse("repo://{owner}/{+path}/raw").unwrap();
        assert_eq!(raw.matches("repo://ann/a/raw/b/raw"), Some(pairs(&[("owner", "ann"), ("path", "a/raw/b")])));
        let typed = UriTemplate::parse("docs://{name}.md").unwrap();
        assert_eq!(typed.matches("docs://v1.2.md"), Some(pairs(&[("name", "v1.2")])));
        assert_eq!(UriTemplate::parse("a+b://{x}").unwrap().matches("a+b://y"), Some(pairs(&[("x", "y")])));
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
