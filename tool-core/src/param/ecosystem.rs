//! [`ToolParam`] for the ecosystem's types that travel as text, each behind the cargo feature
//! of its crate: `chrono`, `time`, `jiff`, `uuid`, `url`, `rust_decimal` and `semver`.
//!
//! Where JSON Schema has a `format` that names the form exactly (`date-time`, `date`,
//! `uuid`, `uri`), the schema states it and dispatch checks it as well as the type's parser
//! (the parsers accept more: a UUID without hyphens, a URL with spaces around it); other
//! forms are described for the model, and the type's parser alone decides.

use super::text::text_forms;

text_forms! {
    #[cfg(feature = "chrono")]
    chrono::DateTime<chrono::Utc> => { format: Some("date-time"), description: None, exact: false }
    #[cfg(feature = "chrono")]
    chrono::DateTime<chrono::FixedOffset> => { format: Some("date-time"), description: None, exact: false }
    #[cfg(feature = "chrono")]
    chrono::DateTime<chrono::Local> => { format: Some("date-time"), description: None, exact: false }
    #[cfg(feature = "chrono")]
    chrono::NaiveDate => { format: Some("date"), description: None, exact: false }
    #[cfg(feature = "chrono")]
    chrono::NaiveTime => {
        format: None,
        description: Some("a time of day without a UTC offset, such as 14:30:00 or 14:30:00.250"),
        exact: true,
    }
    #[cfg(feature = "chrono")]
    chrono::NaiveDateTime => {
        format: None,
        description: Some("a date and time without a UTC offset, such as 2024-05-01T14:30:00"),
        exact: true,
    }

    #[cfg(feature = "time")]
    time::OffsetDateTime => {
        format: None,
        description: Some("a date, time and UTC offset, such as 2024-05-01 14:30:00.0 +02:00:00"),
        exact: true,
    }
    #[cfg(feature = "time")]
    time::PrimitiveDateTime => {
        format: None,
        description: Some("a date and time without a UTC offset, such as 2024-05-01 14:30:00.0"),
        exact: true,
    }
    #[cfg(feature = "time")]
    time::Date => { format: Some("date"), description: None, exact: false }
    #[cfg(feature = "time")]
    time::Time => { format: None, description: Some("a time of day, such as 14:30:00.0"), exact: true }

    #[cfg(feature = "jiff")]
    jiff::Timestamp => { format: Some("date-time"), description: None, exact: false }
    #[cfg(feature = "jiff")]
    jiff::civil::Date => { format: Some("date"), description: None, exact: false }
    #[cfg(feature = "jiff")]
    jiff::civil::Time => {
        format: None,
        description: Some("a time of day without a UTC offset, such as 14:30:00"),
        exact: true,
    }
    #[cfg(feature = "jiff")]
    jiff::civil::DateTime => {
        format: None,
        description: Some("a date and time without a UTC offset, such as 2024-05-01T14:30:00"),
        exact: true,
    }

    #[cfg(feature = "uuid")]
    uuid::Uuid => { format: Some("uuid"), description: None, exact: false }

    #[cfg(feature = "url")]
    url::Url => { format: Some("uri"), description: None, exact: false }

    #[cfg(feature = "rust_decimal")]
    rust_decimal::Decimal => {
        format: None,
        description: Some("a decimal number written as a string, such as \"12.50\""),
        // serde's `Decimal` takes JSON numbers too; the schema says string, so the full
        // path (which refuses them) decides.
        exact: false,
    }

    #[cfg(feature = "semver")]
    semver::Version => { format: None, description: Some("a semantic version, such as 1.4.0 or 2.0.0-rc.1"), exact: true }
    #[cfg(feature = "semver")]
    semver::VersionReq => {
        format: None,
        description: Some("a semantic version requirement, such as ^1.4 or >=1.2, <2"),
        exact: true,
    }
}
