//! Decoding a tool's arguments as a registry does, outside any registry: [`decode`] parses,
//! validates and deserializes an [`Arguments`] (JSON text or a parsed value) under
//! [`DecodeOptions`]. A [`ToolFuture`] is what an async call returns.
//!
//! The rest of this module is the shim's steps (parse, coerce, validate, deserialize, call
//! with panics caught), which `#[tool]` calls in order through `__private`; nothing here
//! reads a schema.

pub(crate) mod deny_unknown;
mod input;

pub use input::{Arguments, DecodeOptions};

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::any::Any;
use std::borrow::Cow;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use crate::dispatch::deny_unknown::DenyUnknown;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::param::ToolArgs;
use crate::schema::Schema;
use crate::validate::fields::Check;
use crate::validate::violation::{Pointer, Violation, Violations};

/// Parses, checks and deserializes arguments of type `A` outside any tool: what a `#[tool]`
/// shim does before it calls the fn. `options` are a registry's
/// ([`DecodeOptions::default`]: exactly what the schema accepts, text up to 1 MiB);
/// [`DecodeOptions::lenient`] also rewrites the common model mistakes (`"3"` for `3`)
/// first, and [`DecodeOptions::max_argument_bytes`] moves the size limit.
///
/// ```
/// # use tool_core::ToolArgs;
/// # use tool_core::dispatch::DecodeOptions;
/// #[derive(Debug, ToolArgs)]
/// struct Args {
///     #[param(maximum = 10)]
///     days: u8,
/// }
/// let error = tool_core::dispatch::decode::<Args>(r#"{"days": 12}"#, &DecodeOptions::default()).unwrap_err();
/// assert!(error.to_string().contains("/days: must be <= 10, got 12"));
/// ```
///
/// # Errors
/// [`ToolError::InvalidJson`] for text that is not JSON or exceeds
/// [`DecodeOptions::max_argument_bytes`]; [`ToolError::InvalidArguments`] with every
/// violation otherwise.
pub fn decode<'a, A: ToolArgs>(arguments: impl Into<Arguments<'a>>, options: &DecodeOptions) -> Result<A, ToolError> {
    decode_for(core::any::type_name::<A>(), arguments.into(), options)
}

/// Parses, checks and deserializes a tool's arguments.
///
/// Valid arguments of a type whose serde decoding is as strict as its schema (`SERDE_EXACT`)
/// decode straight from the text; every other call is parsed, validated in full, then
/// decoded from its text. Decoding is always from text, so each argument type has one
/// `Deserialize` instance (a parsed value is written out first: a few hundred nanoseconds,
/// against the code size of a second instance per type in every build).
///
/// # Errors
/// [`ToolError::InvalidJson`] for text that is not JSON or exceeds
/// [`DecodeOptions::max_argument_bytes`]; [`ToolError::InvalidArguments`] with every
/// violation otherwise.
#[doc(hidden)]
pub fn decode_for<A: ToolArgs>(
    tool: &'static str,
    arguments: Arguments<'_>,
    options: &DecodeOptions,
) -> Result<A, ToolError> {
    (const { decoder::<A>() })(tool, arguments, options)
}

/// How arguments of type `A` are decoded.
pub(crate) type Decoder<A> = for<'a> fn(&'static str, Arguments<'a>, &DecodeOptions) -> Result<A, ToolError>;

/// The decoder of `A`, chosen at compile time so that only one is built per type: a type
/// that can take the fast path decodes through the [`DenyUnknown`] adapter (on both paths, one
/// instance), any other only after full validation, with serde's plain decoding, which
/// validated arguments cannot trip.
pub(crate) const fn decoder<A: ToolArgs>() -> Decoder<A> {
    if A::SERDE_EXACT { decode_fast::<A> } else { decode_validated::<A> }
}

fn decode_fast<A: ToolArgs>(
    tool: &'static str,
    arguments: Arguments<'_>,
    options: &DecodeOptions,
) -> Result<A, ToolError> {
    // The fast path: serde decodes straight from the text, refusing undeclared keys, and
    // the typed keyword checks run on the result. Anything short of a yes takes the full
    // path, which is authoritative: it accepts the same calls and explains the ones it
    // refuses. It allocates what the decoded struct holds, nothing else.
    if let Some(text) = fast_text(&arguments, options) {
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        if let Ok(args) = A::deserialize(DenyUnknown::new(&mut deserializer))
            && deserializer.end().is_ok()
            && args.satisfies()
        {
            return Ok(args);
        }
    }
    let text = validated(tool, arguments, options, A::__CHECK, &A::SCHEMA)?;
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    match A::deserialize(DenyUnknown::new(&mut deserializer)) {
        Ok(args) => Ok(args),
        Err(error) => Err(deserialize_failed(tool, &error)),
    }
}

/// The text the fast path tries, if it may: not when lenient (the text may need
/// rewriting), nor beyond the size limit (the full path reports it).
#[inline]
fn fast_text<'a>(arguments: &'a Arguments<'_>, options: &DecodeOptions) -> Option<Cow<'a, str>> {
    if options.lenient {
        return None;
    }
    // Matched here rather than through `Arguments::to_text`: this is every call's path.
    let text = match arguments {
        Arguments::Text(text) => Cow::Borrowed(&**text),
        Arguments::Value(value) => Cow::Owned(value.to_string()),
    };
    (text.len() <= options.max_argument_bytes).then_some(text)
}

fn decode_validated<A: ToolArgs>(
    tool: &'static str,
    arguments: Arguments<'_>,
    options: &DecodeOptions,
) -> Result<A, ToolError> {
    let text = validated(tool, arguments, options, A::__CHECK, &A::SCHEMA)?;
    match serde_json::from_str(&text) {
        Ok(args) => Ok(args),
        Err(error) => Err(deserialize_failed(tool, &error)),
    }
}

/// The full path up to decoding, the same for every argument type: parse, coerce when
/// lenient, validate, and write the validated value out for the decoder.
fn validated(
    tool: &'static str,
    arguments: Arguments<'_>,
    options: &DecodeOptions,
    check: Check,
    schema: &'static Schema,
) -> Result<String, ToolError> {
    checked_value(tool, arguments, options, check, schema).map(|value| value.to_string())
}

/// Parses, coerces when lenient, and validates `arguments` of the tool `tool` (its `check`
/// and `schema`): the arguments as the tool would decode them, or every violation.
pub(crate) fn checked_value(
    tool: &str,
    arguments: Arguments<'_>,
    options: &DecodeOptions,
    check: Check,
    schema: &'static Schema,
) -> Result<serde_json::Value, ToolError> {
    let mut value = arguments.into_value(options)?;
    if options.lenient {
        check.coerce(&mut value);
    }
    let mut violations = Violations::new();
    check.validate(&mut value, &mut Pointer::root(), &mut violations);
    if violations.is_empty() { Ok(value) } else { Err(refused(tool, violations, &value, schema)) }
}

/// The error for arguments `value` that break `schema`, each violation told what it expected
/// and received. Cold: the schema is read as JSON only here, rendered once per type.
#[cold]
fn refused(tool: &str, violations: Violations, value: &serde_json::Value, schema: &'static Schema) -> ToolError {
    let mut violations = violations;
    crate::validate::explain::explain(&mut violations, value, &rendered(schema));
    ToolError::InvalidArguments { tool: tool.to_owned(), violations }
}

/// `schema` as JSON, rendered and parsed on its type's first refusal and kept: one entry per
/// argument type of the program (a compile-time schema is a `'static` of its type), so the
/// map is bounded by the program, and a model that keeps refusing costs no rendering.
fn rendered(schema: &'static Schema) -> Arc<serde_json::Value> {
    static RENDERED: OnceLock<RwLock<HashMap<usize, Arc<serde_json::Value>>>> = OnceLock::new();
    let rendered = RENDERED.get_or_init(RwLock::default);
    let key = core::ptr::from_ref(schema) as usize;
    if let Some(value) = rendered.read().unwrap_or_else(PoisonError::into_inner).get(&key) {
        return Arc::clone(value);
    }
    let value = Arc::new(serde_json::from_str(&crate::render::to_json(schema)).unwrap_or_default());
    rendered.write().unwrap_or_else(PoisonError::into_inner).entry(key).or_insert(value).clone()
}

/// serde refused what validation accepted: a type whose `Deserialize` is stricter than its
/// schema (a hand-written impl, say). Rare, so it costs a path-less violation.
#[cold]
fn deserialize_failed(tool: &'static str, error: &serde_json::Error) -> ToolError {
    let mut violations = Violations::new();
    violations.push_violation(Violation::new("", "deserialize", error.to_string()));
    ToolError::InvalidArguments { tool: tool.to_owned(), violations }
}

/// Runs a plain tool fn on its decoded arguments, turning its output, its `Err` and its
/// panic into a result. What a `#[tool]` shim calls: the decoding's error passes through
/// here rather than through a `?` in each generated shim.
///
/// # Errors
/// The decoding's error; [`ToolError::Failed`] for the fn's `Err`, [`ToolError::Panicked`]
/// for a panic.
#[doc(hidden)]
#[inline]
pub fn run<A, O>(
    tool: &'static str,
    decoded: Result<A, ToolError>,
    convert: fn(O) -> Result<ToolOutput, String>,
    f: impl FnOnce(A) -> O,
) -> Result<ToolOutput, ToolError> {
    let args = decoded?;
    match catch_unwind(AssertUnwindSafe(move || f(args))) {
        Ok(output) => finish(tool, convert, output),
        Err(payload) => Err(panicked(tool, &*payload)),
    }
}

/// Starts an async tool fn on its decoded arguments, wrapping its future so that its
/// output, `Err` and panic become a result (a decoding error is an already finished one).
#[doc(hidden)]
pub fn run_async<'a, A, O, F>(
    tool: &'static str,
    decoded: Result<A, ToolError>,
    convert: fn(O) -> Result<ToolOutput, String>,
    start: impl FnOnce(A) -> F,
) -> ToolFuture<'a>
where
    O: 'a,
    F: Future<Output = O> + Send + 'a,
{
    let args = match decoded {
        Ok(args) => args,
        Err(error) => return ready(Err(error)),
    };
    let guarded = CatchUnwind(Box::pin(start(args)));
    Box::pin(async move {
        match guarded.await {
            Ok(output) => finish(tool, convert, output),
            Err(payload) => Err(panicked(tool, &*payload)),
        }
    })
}

/// The future an async tool call returns.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = Result<ToolOutput, ToolError>> + Send + 'a>>;

/// An error result as an already finished future.
#[doc(hidden)]
#[must_use]
pub fn ready<'a>(result: Result<ToolOutput, ToolError>) -> ToolFuture<'a> {
    Box::pin(core::future::ready(result))
}

#[inline]
fn finish<O>(
    tool: &'static str,
    convert: fn(O) -> Result<ToolOutput, String>,
    output: O,
) -> Result<ToolOutput, ToolError> {
    convert(output).map_err(|message| ToolError::Failed { tool: tool.to_owned(), message })
}

pub(crate) fn panicked(tool: &str, payload: &(dyn Any + Send)) -> ToolError {
    let message = if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with a non-string payload".to_owned()
    };
    ToolError::Panicked { tool: tool.to_owned(), message }
}

/// Polls a future inside `catch_unwind`, so a panicking async tool yields an error.
pub(crate) struct CatchUnwind<F>(Pin<Box<F>>);

impl<F> CatchUnwind<F> {
    pub(crate) fn new(future: Pin<Box<F>>) -> Self {
        CatchUnwind(future)
    }
}

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        match catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}
