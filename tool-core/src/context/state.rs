//! [`State`]: typed values shared by every call of a registry's tools, and [`StateError`],
//! which says what was asked for and what is there when a lookup misses.

use core::any::{Any, TypeId};
use core::fmt;
use std::collections::HashMap;
use std::sync::Arc;

/// Typed values shared by every call of a registry's tools (a database pool, an HTTP
/// client), one per type.
#[derive(Default, Clone)]
pub struct State {
    values: HashMap<TypeId, Stored>,
}

#[derive(Clone)]
struct Stored {
    value: Arc<dyn Any + Send + Sync>,
    type_name: &'static str,
}

impl State {
    /// Stores `value`, replacing any earlier value of the same type.
    pub fn insert<T: Any + Send + Sync>(&mut self, value: T) {
        let stored = Stored { value: Arc::new(value), type_name: core::any::type_name::<T>() };
        self.values.insert(TypeId::of::<T>(), stored);
    }

    /// The value of type `T`.
    ///
    /// # Errors
    /// A [`StateError`] naming `T` and the types that are stored, when none is of type `T`.
    pub fn get<T: Any + Send + Sync>(&self) -> Result<&T, StateError> {
        self.values
            .get(&TypeId::of::<T>())
            .and_then(|stored| stored.value.downcast_ref())
            .ok_or_else(|| StateError { wanted: core::any::type_name::<T>(), available: self.type_names() })
    }

    /// The names of the stored types, sorted.
    #[must_use]
    pub fn type_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self.values.values().map(|stored| stored.type_name).collect();
        names.sort_unstable();
        names
    }

    /// How many values are stored.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State").field("types", &self.type_names()).finish()
    }
}

/// A tool asked for shared state of a type the registry does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateError {
    /// The type asked for.
    pub wanted: &'static str,
    /// The types the registry holds, sorted.
    pub available: Vec<&'static str>,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no shared state of type `{}`", self.wanted)?;
        if self.available.is_empty() {
            f.write_str("; the registry holds none: add it with `Registry::with_state`")?;
        } else {
            f.write_str("; the registry holds ")?;
            for (i, name) in self.available.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "`{name}`")?;
            }
            // The usual slip: registering `Arc<T>` and asking for `T` (or the reverse).
            if let Some(close) = self.available.iter().find(|name| wraps(name, self.wanted) || wraps(self.wanted, name))
            {
                write!(f, "; ask for exactly the type registered, `{close}`")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for StateError {}

/// Whether `outer` is a smart pointer around `inner` (`alloc::sync::Arc<T>` around `T`).
fn wraps(outer: &str, inner: &str) -> bool {
    outer.strip_suffix('>').and_then(|rest| rest.strip_suffix(inner)).is_some_and(|rest| rest.ends_with('<'))
}

/// So that `ctx.state::<T>()?` works in a tool returning `Result<_, String>`.
impl From<StateError> for String {
    fn from(error: StateError) -> Self {
        error.to_string()
    }
}
