//! `format` checks for the formats JSON Schema 2020-12 defines, each by its RFC (the model
//! sees `format`, and a user who writes `format = "email"` expects it enforced): dates and
//! times here, addresses and host names in `address.rs`, identifiers and pointers in
//! `uri.rs`. The same checks serve the compile-time validator and run-time schemas, so both
//! decide alike. `regex` is ECMA-262's syntax; an unknown format is an annotation.

mod address;
mod uri;

use std::net::{Ipv4Addr, Ipv6Addr};

use serde_json::Value;

use crate::validate::violation::{Pointer, Violations, preview};

/// `format`: the string is a valid `name`; formats without a check here always pass.
pub fn format(value: &Value, name: &str, at: &Pointer, out: &mut Violations) {
    if let Value::String(text) = value
        && !is_valid(name, text)
    {
        out.push(at, "format", format!("must be a valid {name}, got {}", preview(value)));
    }
}

/// Whether `text` is a valid `name`; formats without a check here always are.
pub(crate) fn is_valid(name: &str, text: &str) -> bool {
    match name {
        "date-time" => date_time(text),
        "date" => date(text),
        "time" => time(text),
        "email" => address::email(text, false),
        "idn-email" => address::email(text, true),
        "hostname" => address::hostname(text, false),
        "idn-hostname" => address::hostname(text, true),
        "ipv4" => text.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<Ipv6Addr>().is_ok(),
        "uri" => uri::absolute(text, false),
        "iri" => uri::absolute(text, true),
        "uri-reference" => uri::reference(text, false),
        "iri-reference" => uri::reference(text, true),
        "uri-template" => uri::template(text),
        "json-pointer" => uri::json_pointer(text),
        "relative-json-pointer" => uri::relative_json_pointer(text),
        "regex" => jsonschema_regex::is_valid_ecma_regex(text),
        "uuid" => uuid(text),
        "duration" => duration(text),
        _ => true,
    }
}

fn digits(text: &str, count: usize) -> Option<u32> {
    (text.len() == count && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok())?
}

/// RFC 3339 `full-date`: `2024-02-29`.
fn date(text: &str) -> bool {
    let mut parts = text.split('-');
    let (Some(y), Some(m), Some(d), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let (Some(year), Some(month), Some(day)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `full-time`: `23:59:59.5Z`, `08:30:00+02:00`. A leap second (`:60`) only in
/// the last minute of a UTC day (`23:59:60Z`, `15:59:60-08:00`), as its section 5.7 says.
fn time(text: &str) -> bool {
    let text = text.as_bytes();
    if text.len() < 9 {
        return false;
    }
    let (clock, rest) = text.split_at(8);
    let Ok(clock) = core::str::from_utf8(clock) else { return false };
    let mut parts = clock.split(':');
    let (Some(h), Some(m), Some(s), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let (Some(h), Some(m), Some(s)) = (digits(h, 2), digits(m, 2), digits(s, 2)) else { return false };
    if h > 23 || m > 59 || s > 60 {
        return false;
    }
    let mut rest = rest;
    if let [b'.', tail @ ..] = rest {
        let fraction = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        if fraction == 0 {
            return false;
        }
        rest = &tail[fraction..];
    }
    // Minutes east of UTC.
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), offset @ ..] => {
            let Ok(offset) = core::str::from_utf8(offset) else { return false };
            let Some((oh, om)) = offset.split_once(':') else { return false };
            let (Some(oh), Some(om)) = (digits(oh, 2), digits(om, 2)) else { return false };
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = i64::from(oh * 60 + om);
            if *sign == b'-' { -minutes } else { minutes }
        }
        _ => return false,
    };
    s < 60 || (i64::from(h * 60 + m) - offset).rem_euclid(24 * 60) == 23 * 60 + 59
}

/// RFC 3339 `date-time`: a date, `T`, a time.
fn date_time(text: &str) -> bool {
    text.len() > 11
        && text.is_char_boundary(10)
        && matches!(text.as_bytes()[10], b'T' | b't')
        && date(&text[..10])
        && time(&text[11..])
}

fn uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(group, len)| group.len() == len && group.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// ISO 8601 duration as RFC 3339 appendix A restricts it: `P3D`, `PT1H30M`, `P2W`.
fn duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else { return false };
    if rest.is_empty() {
        return false;
    }
    let (date_part, time_part) = match rest.split_once('T') {
        Some((d, t)) if !t.is_empty() => (d, Some(t)),
        Some(_) => return false,
        None => (rest, None),
    };
    // RFC 3339 appendix A: units run without a gap (`P1Y2D` and `PT1H2S` are not durations),
    // each after a number.
    let units_in_order = |part: &str, units: &[u8]| -> bool {
        let mut next_unit: Option<usize> = None;
        let mut number = false;
        for b in part.bytes() {
            if b.is_ascii_digit() {
                number = true;
                continue;
            }
            let Some(position) = units.iter().position(|u| *u == b) else { return false };
            if !number || next_unit.is_some_and(|next| next != position) {
                return false;
            }
            number = false;
            next_unit = Some(position + 1);
        }
        !number
    };
    if date_part.is_empty() && time_part.is_none() {
        return false;
    }
    if date_part.ends_with('W') {
        return time_part.is_none() && units_in_order(date_part, b"W");
    }
    units_in_order(date_part, b"YMD") && time_part.is_none_or(|t| units_in_order(t, b"HMS"))
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    /// Examples from the RFCs and the JSON Schema test suite: (format, text, valid).
    const TABLE: &[(&str, &str, bool)] = &[
        // RFC 3339 section 5.8, and its leap-second rule (5.7).
        ("date-time", "1985-04-12T23:20:50.52Z", true),
        ("date-time", "1996-12-19T16:39:57-08:00", true),
        ("date-time", "1990-12-31T23:59:60Z", true),
        ("date-time", "1990-12-31T15:59:60-08:00", true),
        ("date-time", "1937-01-01T12:00:27.87+00:20", true),
        ("date-time", "1998-12-31T23:58:60Z", false),
        ("date-time", "1998-12-31T22:59:60Z", false),
        ("date-time", "1998-12-31T15:59:60-07:00", false),
        ("date-time", "1963-06-19T08:30:06.28123+01:00Z", false),
        ("date-time", "2013-350T01:01:01", false),
        ("date-time", "1990-02-31T15:59:59.123-08:00", false),
        ("time", "23:59:60Z", true),
        ("time", "23:58:60Z", false),
        ("time", "08:30:06+00:20", true),
        ("time", "08:30:06 PST", false),
        ("date", "2020-02-29", true),
        ("date", "2021-02-29", false),
        // RFC 5321 section 4.1.2 and 4.1.3.
        ("email", "joe.bloggs@example.com", true),
        ("email", "te~st@example.com", true),
        ("email", "\"joe bloggs\"@example.com", true),
        ("email", "\"joe..bloggs\"@example.com", true),
        ("email", "joe.bloggs@[127.0.0.1]", true),
        ("email", "joe.bloggs@[IPv6:::1]", true),
        ("email", "joe.bloggs@[127.0.0.300]", false),
        ("email", "joe.bloggs@[IPv6:::1:]", false),
        ("email", ".test@example.com", false),
        ("email", "test.@example.com", false),
        ("email", "te..st@example.com", false),
        ("email", "joe bloggs@example.com", false),
        ("email", "joe.bloggs@invalid=domain.com", false),
        ("email", "2962", false),
        // RFC 3986 section 1.1.2, and what it leaves out.
        ("uri", "ftp://ftp.is.co.za/rfc/rfc1808.txt", true),
        ("uri", "http://www.ietf.org/rfc/rfc2396.txt", true),
        ("uri", "ldap://[2001:db8::7]/c=GB?objectClass?one", true),
        ("uri", "mailto:John.Doe@example.com", true),
        ("uri", "news:comp.infosystems.www.servers.unix", true),
        ("uri", "tel:+1-816-555-1212", true),
        ("uri", "telnet://192.0.2.16:80/", true),
        ("uri", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", true),
        ("uri", "http://foo.bar/?q=Test%20URL-encoded%20stuff", true),
        ("uri", "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", true),
        ("uri", "http://example.com/%zz", false),
        ("uri", "http://example.com/%2", false),
        ("uri", "http://example.com/\u{e6}", false),
        ("uri", "http://example.com/a#b#c", false),
        ("uri", "http://[::1/", false),
        ("uri", "http://example.com/[x]", false),
        ("uri", "//foo.bar/?baz=qux#quux", false),
        ("uri", "http:// shouldfail.com", false),
        ("uri", ":// should fail", false),
        ("uri", "bar,baz:foo", false),
        ("uri", "abc", false),
        ("uri-reference", "//foo.bar/?baz=qux#quux", true),
        ("uri-reference", "/abc", true),
        ("uri-reference", "#fragment", true),
        ("uri-reference", "", true),
        ("uri-reference", "\\\\WINDOWS\\fileshare", false),
        ("uri-reference", "#frag#ment", false),
        ("iri", "http://\u{e9}x\u{e1}mple.com/\u{e6}", true),
        ("iri", "http://example.com/%zz", false),
        ("iri-reference", "\u{e9}t\u{e9}", true),
        // RFC 6570 section 1.2.
        ("uri-template", "http://example.com/dictionary/{term:1}/{term}", true),
        ("uri-template", "{+path}/here{?x,y}{&list*}", true),
        ("uri-template", "http://example.com/dictionary/{term:1}/{term", false),
        ("uri-template", "http://example.com/}", false),
        ("uri-template", "{term:0}", false),
        // RFC 6901 section 5, and the relative draft's examples.
        ("json-pointer", "", true),
        ("json-pointer", "/foo/0", true),
        ("json-pointer", "/a~1b/m~0n", true),
        ("json-pointer", "/foo/~2", false),
        ("json-pointer", "foo", false),
        ("relative-json-pointer", "0", true),
        ("relative-json-pointer", "1/0", true),
        ("relative-json-pointer", "0#", true),
        ("relative-json-pointer", "0-1/foo", true),
        ("relative-json-pointer", "-1/foo", false),
        ("relative-json-pointer", "01/a", false),
        ("hostname", "www.example.com", true),
        ("hostname", "-a-host.com", false),
        ("hostname", "ex\u{e4}mple.com", false),
        ("idn-hostname", "ex\u{e4}mple.com", true),
        ("idn-email", "\u{5b9e}\u{4f8b}@\u{5b9e}\u{4f8b}.\u{6d4b}\u{8bd5}", true),
        // RFC 3339 appendix A.
        ("duration", "P4DT12H30M5S", true),
        ("duration", "P1Y2D", false),
        ("duration", "PT1H2S", false),
        ("duration", "P2W", true),
        ("regex", "^(?!admin)[a-z]+$", true),
        ("regex", "^(abc]", false),
        ("regex", "(?P<name>x)", false),
        ("uri", "http://example.com:abc/path", false),
        ("uri", "http://a@b@example.com/", false),
        ("iri", "http://2001:0db8:85a3:0000:0000:8a2e:0370:7334", false),
        ("email", "\u{5b9e}\u{4f8b}@example.com", false),
    ];

    #[test]
    fn each_format_follows_its_rfc() {
        let wrong: Vec<_> = TABLE.iter().filter(|(name, text, valid)| is_valid(name, text) != *valid).collect();
        assert!(wrong.is_empty(), "decided against the RFC: {wrong:#?}");
    }
}
