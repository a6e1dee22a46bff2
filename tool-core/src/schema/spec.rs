//! [`Spec`]: a JSON Schema built in code at run time, for tools made from configuration
//! (a list of fields read from a file, a form a user designed), written as the derive
//! writes a type's schema: objects closed, properties in the order given, keywords in the
//! order the derive states them.

use core::fmt;

use serde_json::{Map, Value, json};

/// A JSON Schema under construction: a string, an integer, a number, a boolean, a string
/// enum, an array or an object, with the keywords JSON Schema gives each.
///
/// ```
/// use tool_core::schema::Spec;
/// use serde_json::json;
///
/// let weather = Spec::object()
///     .property("city", Spec::string().description("City name").min_length(1))
///     .property("days", Spec::integer().minimum(1).maximum(10))
///     .optional("units", Spec::one_of(["celsius", "fahrenheit"]));
/// assert_eq!(weather.to_value(), json!({
///     "type": "object",
///     "properties": {
///         "city": {"description": "City name", "type": "string", "minLength": 1},
///         "days": {"type": "integer", "minimum": 1, "maximum": 10},
///         "units": {"type": "string", "enum": ["celsius", "fahrenheit"]}
///     },
///     "required": ["city", "days"],
///     "additionalProperties": false
/// }));
/// // `DynamicTool::new(name, description, &weather.to_string(), handler)` makes it a tool.
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The description, written first as the derive writes it.
    description: Option<String>,
    /// Every other keyword, in the order given.
    keywords: Map<String, Value>,
    /// An object's required properties, in order (written after `properties`).
    required: Vec<String>,
}

impl Spec {
    fn of(kind: &str) -> Spec {
        let mut keywords = Map::new();
        keywords.insert("type".to_owned(), json!(kind));
        Spec { description: None, keywords, required: Vec::new() }
    }

    /// A string.
    #[must_use]
    pub fn string() -> Spec {
        Spec::of("string")
    }

    /// An integer.
    #[must_use]
    pub fn integer() -> Spec {
        Spec::of("integer")
    }

    /// A number.
    #[must_use]
    pub fn number() -> Spec {
        Spec::of("number")
    }

    /// A boolean.
    #[must_use]
    pub fn boolean() -> Spec {
        Spec::of("boolean")
    }

    /// One of `names` (a string `enum`, as a unit enum's schema).
    #[must_use]
    pub fn one_of<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Spec {
        Spec::string().keyword("enum", Value::Array(names.into_iter().map(|name| Value::String(name.into())).collect()))
    }

    /// An array of `items`.
    #[must_use]
    pub fn array(items: Spec) -> Spec {
        Spec::of("array").keyword("items", items.to_value())
    }

    /// An object with no properties yet; closed (`additionalProperties: false`), as a
    /// derived struct's.
    #[must_use]
    pub fn object() -> Spec {
        Spec::of("object").keyword("properties", Value::Object(Map::new()))
    }

    /// A required property (of an object).
    #[must_use]
    pub fn property(mut self, name: impl Into<String>, spec: Spec) -> Spec {
        let name = name.into();
        if !self.required.contains(&name) {
            self.required.push(name.clone());
        }
        self.optional(name, spec)
    }

    /// A property that may be left out (of an object).
    #[must_use]
    pub fn optional(mut self, name: impl Into<String>, spec: Spec) -> Spec {
        if let Some(Value::Object(properties)) = self.keywords.get_mut("properties") {
            properties.insert(name.into(), spec.to_value());
        }
        self
    }

    /// What the value is, for the model.
    #[must_use]
    pub fn description(mut self, text: impl Into<String>) -> Spec {
        self.description = Some(text.into());
        self
    }

    /// `minLength`: at least `n` characters.
    #[must_use]
    pub fn min_length(self, n: u64) -> Spec {
        self.keyword("minLength", json!(n))
    }

    /// `maxLength`: at most `n` characters.
    #[must_use]
    pub fn max_length(self, n: u64) -> Spec {
        self.keyword("maxLength", json!(n))
    }

    /// `pattern`: an ECMA-262 regular expression the string matches.
    #[must_use]
    pub fn pattern(self, regex: impl Into<String>) -> Spec {
        self.keyword("pattern", Value::String(regex.into()))
    }

    /// `format` (`date-time`, `email`, `uri`...).
    #[must_use]
    pub fn format(self, name: impl Into<String>) -> Spec {
        self.keyword("format", Value::String(name.into()))
    }

    /// `minimum`.
    #[must_use]
    pub fn minimum(self, bound: impl Into<serde_json::Number>) -> Spec {
        self.keyword("minimum", Value::Number(bound.into()))
    }

    /// `maximum`.
    #[must_use]
    pub fn maximum(self, bound: impl Into<serde_json::Number>) -> Spec {
        self.keyword("maximum", Value::Number(bound.into()))
    }

    /// `minItems`.
    #[must_use]
    pub fn min_items(self, n: u64) -> Spec {
        self.keyword("minItems", json!(n))
    }

    /// `maxItems`.
    #[must_use]
    pub fn max_items(self, n: u64) -> Spec {
        self.keyword("maxItems", json!(n))
    }

    /// Any other keyword, as given (`"default"`, `"examples"`, `"uniqueItems"`...); a
    /// [`RuntimeSchema`](crate::schema::RuntimeSchema) made from the result says whether the
    /// whole is a valid schema.
    #[must_use]
    pub fn keyword(mut self, name: impl Into<String>, value: Value) -> Spec {
        self.keywords.insert(name.into(), value);
        self
    }

    /// The schema as JSON.
    #[must_use]
    pub fn to_value(&self) -> Value {
        let mut out = Map::new();
        if let Some(description) = &self.description {
            out.insert("description".to_owned(), Value::String(description.clone()));
        }
        out.extend(self.keywords.iter().map(|(key, value)| (key.clone(), value.clone())));
        if self.keywords.get("type") == Some(&json!("object")) {
            if !self.required.is_empty() {
                out.insert("required".to_owned(), json!(self.required));
            }
            out.entry("additionalProperties").or_insert(Value::Bool(false));
        }
        Value::Object(out)
    }
}

/// The schema's JSON text.
impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}
