//! Identifiers and pointers: RFC 3986 (`uri`, `uri-reference`), RFC 3987 (`iri`,
//! `iri-reference`), RFC 6570 (`uri-template`) and RFC 6901 with its relative draft
//! (`json-pointer`, `relative-json-pointer`).

use std::net::Ipv6Addr;

/// RFC 3986 `URI`: a scheme, `:`, and the hierarchical part ([`hierarchical`]).
pub(super) fn absolute(text: &str, international: bool) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else { return false };
    let scheme_ok = scheme.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    scheme_ok && hierarchical(rest, international)
}

/// RFC 3986 `URI-reference`: a URI, or a relative reference (whose first segment holds no
/// `:`, which would make it a scheme).
pub(super) fn reference(text: &str, international: bool) -> bool {
    let first = text.find(['/', '?', '#']).unwrap_or(text.len());
    if text[..first].contains(':') { absolute(text, international) } else { hierarchical(text, international) }
}

/// What follows a scheme's `:` (or makes a relative reference): only the characters a URI
/// holds (ASCII unreserved, reserved, and `%` with two hex digits; with `international`, any
/// character beyond ASCII but controls), `[` and `]` only around an authority's IP literal,
/// `#` at most once.
fn hierarchical(rest: &str, international: bool) -> bool {
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => after.split_at(after.find(['/', '?', '#']).unwrap_or(after.len())),
        None => ("", rest),
    };
    let (userinfo, host) = authority.rsplit_once('@').unwrap_or(("", authority));
    let port_ok =
        |port: &str| port.is_empty() || port.strip_prefix(':').is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()));
    // `host [":" port]`: an IP literal in brackets, or a name or IPv4 address (no `:`).
    let host_ok = match host.strip_prefix('[') {
        Some(inner) => inner.split_once(']').is_some_and(|(address, port)| {
            let address_ok = address.parse::<Ipv6Addr>().is_ok() || address.starts_with(['v', 'V']);
            address_ok && port_ok(port)
        }),
        None => !host.contains(']') && port_ok(host.find(':').map_or("", |at| &host[at..])),
    };
    let bare = |part: &str| !part.contains(['[', ']']);
    host_ok
        && !userinfo.contains('@')
        && bare(userinfo)
        && bare(path)
        && path.matches('#').count() <= 1
        && characters(authority, international)
        && characters(path, international)
}

/// Whether `text` holds only URI (or IRI) characters, each `%` starting a valid escape.
fn characters(text: &str, international: bool) -> bool {
    let bytes = text.as_bytes();
    text.char_indices().all(|(at, c)| match c {
        '%' => bytes.get(at + 1..at + 3).is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)),
        'A'..='Z' | 'a'..='z' | '0'..='9' => true,
        _ if c.is_ascii() => "-._~:/?#[]@!$&'()*+,;=".contains(c),
        _ => international && !c.is_control() && !c.is_whitespace(),
    })
}

/// RFC 6570 URI Template: literals (URI characters, escapes checked) and expressions
/// `{op var,var:3,var*}`.
pub(super) fn template(text: &str) -> bool {
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['{', '}']) {
            Some(at) if rest.as_bytes()[at] == b'{' => {
                let Some(end) = rest[at..].find('}') else { return false };
                if !characters(&rest[..at], true) || !expression(&rest[at + 1..at + end]) {
                    return false;
                }
                rest = &rest[at + end + 1..];
            }
            Some(_) => return false,
            None => return characters(rest, true),
        }
    }
    true
}

/// An expression's inside: an optional operator, then variables with their modifiers.
fn expression(inside: &str) -> bool {
    let inside = inside.strip_prefix(['+', '#', '.', '/', ';', '?', '&']).unwrap_or(inside);
    !inside.is_empty()
        && inside.split(',').all(|spec| {
            let name = spec.strip_suffix('*').unwrap_or(spec);
            let name = match name.split_once(':') {
                Some((name, length)) => {
                    let digits_ok =
                        !length.is_empty() && length.len() <= 4 && length.bytes().all(|b| b.is_ascii_digit());
                    if !digits_ok || length.starts_with('0') {
                        return false;
                    }
                    name
                }
                None => name,
            };
            !name.is_empty()
                && !name.starts_with('.')
                && !name.ends_with('.')
                && !name.contains("..")
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'%'))
        })
}

/// RFC 6901 JSON Pointer: empty, or `/`-led tokens where `~` is only `~0` or `~1`.
pub(super) fn json_pointer(text: &str) -> bool {
    (text.is_empty() || text.starts_with('/')) && text.split('~').skip(1).all(|after| after.starts_with(['0', '1']))
}

/// Relative JSON Pointer: a non-negative integer (no leading zero), optionally an index
/// adjustment (`+1`, `-2`), then `#` or a JSON Pointer.
pub(super) fn relative_json_pointer(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits > 1 && text.starts_with('0')) {
        return false;
    }
    let mut rest = &text[digits..];
    if let Some(adjusted) = rest.strip_prefix(['+', '-']) {
        let shift = adjusted.bytes().take_while(u8::is_ascii_digit).count();
        if shift == 0 || (shift > 1 && adjusted.starts_with('0')) {
            return false;
        }
        rest = &adjusted[shift..];
    }
    rest == "#" || json_pointer(rest)
}
