//! Mail addresses and host names: RFC 5321 (`email`), RFC 6531 (`idn-email`), RFC 1123
//! (`hostname`) and RFC 5890 (`idn-hostname`).

use std::net::{Ipv4Addr, Ipv6Addr};

/// RFC 5321 `Mailbox`: a dot-atom or quoted local part, `@`, and a domain or an address
/// literal (`[192.0.2.1]`, `[IPv6:2001:db8::1]`); with `international` (RFC 6531), letters
/// beyond ASCII in both parts.
pub(super) fn email(text: &str, international: bool) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else { return false };
    local_part(local, international) && (hostname(domain, international) || address_literal(domain))
}

/// RFC 5321 `Local-part`: atoms of `atext` joined by single dots, or a quoted string of
/// printable characters where `"` and `\` are escaped.
fn local_part(local: &str, international: bool) -> bool {
    // RFC 6531 widens both forms to any character beyond ASCII (`UTF8-non-ascii`).
    let printable = |c: char| (' '..='~').contains(&c) || (international && !c.is_ascii());
    if let Some(quoted) = local.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) {
        let mut chars = quoted.chars();
        while let Some(c) = chars.next() {
            let fine = match c {
                '\\' => chars.next().is_some_and(printable),
                '"' => false,
                _ => printable(c),
            };
            if !fine {
                return false;
            }
        }
        return true;
    }
    let atext =
        |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || (international && !c.is_ascii());
    local.split('.').all(|atom| !atom.is_empty() && atom.chars().all(atext))
}

/// RFC 5321 `address-literal`: an IPv4 address or `IPv6:` and an IPv6 one, in brackets.
fn address_literal(domain: &str) -> bool {
    let Some(inner) = domain.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) else { return false };
    match inner.strip_prefix("IPv6:") {
        Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
        None => inner.parse::<Ipv4Addr>().is_ok(),
    }
}

/// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, 63
/// characters at most each and 253 in all; with `international`, letters and digits of any
/// script (RFC 5890's U-labels, checked for shape, not against IDNA's tables).
pub(super) fn hostname(text: &str, international: bool) -> bool {
    // A U-label's letters, marks and digits: anything beyond ASCII but space and controls
    // (a label not in NFC is still one; the IDNA tables are not consulted). Its length is
    // counted in characters, and the ideographic and full-width stops separate labels too.
    let letter = |c: char| {
        c.is_ascii_alphanumeric() || (international && !c.is_ascii() && !c.is_whitespace() && !c.is_control())
    };
    let separator = |c: char| c == '.' || (international && matches!(c, '\u{3002}' | '\u{ff0e}' | '\u{ff61}'));
    let length = |part: &str| if international { part.chars().count() } else { part.len() };
    !text.is_empty()
        && length(text) <= 253
        && text.split(separator).all(|label| {
            !label.is_empty()
                && length(label) <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| letter(c) || c == '-')
        })
}
