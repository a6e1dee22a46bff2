//! `format` checks for the formats JSON Schema 2020-12 defines. The common ones are checked
//! (the model sees `format` and a user who writes `format = "email"` expects it enforced);
//! the rest are annotations, as the specification makes every format by default.

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
        "email" => email(text),
        "hostname" => hostname(text),
        "ipv4" => text.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<Ipv6Addr>().is_ok(),
        "uri" => uri(text),
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

/// RFC 3339 `full-time`: `23:59:59.5Z`, `08:30:00+02:00`.
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
    match rest {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', offset @ ..] => {
            let Ok(offset) = core::str::from_utf8(offset) else { return false };
            matches!(offset.split_once(':'), Some((oh, om)) if digits(oh, 2).is_some_and(|h| h <= 23) && digits(om, 2).is_some_and(|m| m <= 59))
        }
        _ => false,
    }
}

/// RFC 3339 `date-time`: a date, `T`, a time.
fn date_time(text: &str) -> bool {
    text.len() > 11
        && text.is_char_boundary(10)
        && matches!(text.as_bytes()[10], b'T' | b't')
        && date(&text[..10])
        && time(&text[11..])
}

fn email(text: &str) -> bool {
    match text.rsplit_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !local.starts_with('.')
                && !local.ends_with('.')
                && !local.contains("..")
                && hostname(domain)
        }
        None => false,
    }
}

fn hostname(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// An absolute URI: a scheme, `:`, and no characters a URI never holds.
fn uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else { return false };
    scheme.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        && !rest.chars().any(|c| {
            c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`')
        })
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
    let units_in_order = |part: &str, units: &[u8]| -> bool {
        let mut next_unit = 0;
        let mut number = false;
        for b in part.bytes() {
            if b.is_ascii_digit() {
                number = true;
            } else if let Some(position) = units[next_unit..].iter().position(|u| *u == b) {
                if !number {
                    return false;
                }
                number = false;
                next_unit += position + 1;
            } else {
                return false;
            }
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
