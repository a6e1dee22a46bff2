//! BFCL's AST checker (`bfcl_eval/eval_checker/ast_eval/ast_checker.py`, `bfcl-eval`
//! 2026.3.23) for Python functions, rule for rule: a call is right when its function is the
//! expected one, every required parameter is there, no parameter is unknown, each value has its
//! declared type (an int may stand for a float) and is one of the accepted values (strings
//! compared without case, spaces or `,./-_*^`), and every parameter left out may be. `parallel`
//! matches calls to answers in any order; `multiple` and `simple` want exactly one call.
//!
//! Values compare as Python compares them (`5 == 5.0`, `True == 1`), and a value's type is the
//! type Python's `json.loads` gives it (`5` an int, `5.0` a float). Each failure carries
//! BFCL's own `error_type`, so the recorded answers' verdicts can be checked against BFCL's.

use serde_json::{Map, Value};

use super::data::{Case, Category, offered_name};

/// Why BFCL's checker refuses an answer: its `error_type`.
pub type Refusal = &'static str;

/// A call as the model made it: the function's name and its decoded arguments.
pub type Call = (String, Value);

/// BFCL's verdict on `calls` for `case`: `Ok` when right, else its `error_type`.
pub fn grade(case: &Case, calls: &[Call]) -> Result<(), Refusal> {
    match case.category {
        Category::Parallel => parallel(case, calls),
        Category::Multiple => {
            if calls.len() != case.answers.len() {
                return Err("multiple_function_checker:wrong_count");
            }
            one(&case.functions, &calls[0], &case.answers[0])
        }
        Category::Simple => {
            if calls.len() != 1 {
                return Err("simple_function_checker:wrong_count");
            }
            one(&case.functions, &calls[0], &case.answers[0])
        }
    }
}

/// `parallel_function_checker_no_order`: each answer, in turn, takes the first call left that
/// it accepts.
fn parallel(case: &Case, calls: &[Call]) -> Result<(), Refusal> {
    if calls.len() != case.answers.len() {
        return Err("parallel_function_checker_no_order:wrong_count");
    }
    let mut matched = vec![false; calls.len()];
    for answer in &case.answers {
        let found = (0..calls.len()).find(|&i| !matched[i] && one(&case.functions, &calls[i], answer).is_ok());
        match found {
            Some(i) => matched[i] = true,
            None => return Err("parallel_function_checker_no_order:cannot_find_match"),
        }
    }
    Ok(())
}

/// `simple_function_checker` for the function `answer` names.
fn one(functions: &[Value], call: &Call, answer: &Value) -> Result<(), Refusal> {
    let Some((expected, accepted)) = answer.as_object().and_then(|answer| answer.iter().next()) else {
        return Err("possible_answer:malformed");
    };
    let accepted = accepted.as_object().cloned().unwrap_or_default();
    // `find_description`: the function named so, or the only one.
    let function =
        functions.iter().find(|f| f["name"] == **expected).or(functions.first()).cloned().unwrap_or_default();
    let details = function["parameters"]["properties"].as_object().cloned().unwrap_or_default();
    let (name, arguments) = call;
    if *name != offered_name(expected) {
        return Err("simple_function_checker:wrong_func_name");
    }
    let Some(arguments) = arguments.as_object() else {
        return Err("simple_function_checker:wrong_func_name");
    };
    let required = function["parameters"]["required"].as_array().cloned().unwrap_or_default();
    if required.iter().any(|param| param.as_str().is_some_and(|param| !arguments.contains_key(param))) {
        return Err("simple_function_checker:missing_required");
    }
    for (param, value) in arguments {
        let (Some(detail), Some(options)) = (details.get(param), accepted.get(param)) else {
            return Err("simple_function_checker:unexpected_param");
        };
        let options = options.as_array().cloned().unwrap_or_default();
        parameter(detail, value, &options)?;
    }
    for (param, options) in &accepted {
        if !arguments.contains_key(param) && !options.as_array().is_some_and(|options| options.iter().any(is_blank)) {
            return Err("simple_function_checker:missing_optional");
        }
    }
    Ok(())
}

/// One parameter's value against its declared type and its accepted values.
fn parameter(detail: &Value, value: &Value, options: &[Value]) -> Result<(), Refusal> {
    let declared = detail["type"].as_str().unwrap_or_default();
    let expected = Py::of_declared(declared).ok_or("type_error:unknown_type")?;
    let nested = if matches!(declared, "array" | "tuple") {
        Some(Py::of_declared(detail["items"]["type"].as_str().unwrap_or_default()).ok_or("type_error:unknown_type")?)
    } else {
        None
    };
    // Python's `float(value)` for an int where a float is declared.
    let value = match (expected, value) {
        (Py::Float, Value::Number(n)) if Py::of(value) == Py::Int => {
            serde_json::Number::from_f64(n.as_f64().unwrap_or(0.0)).map_or(value.clone(), Value::Number)
        }
        _ => value.clone(),
    };
    let is_variable = type_check(&value, options, expected, nested)?;
    if !is_variable {
        let checked = match (expected, nested) {
            (Py::Dict, _) => Some(dict_check(&value, options)),
            (Py::List, Some(Py::Dict)) => Some(list_dict_check(&value, options)),
            (Py::Str, _) => {
                Some(if options.iter().filter(|o| o.is_string()).any(|o| standardize(o) == standardize(&value)) {
                    Ok(())
                } else {
                    Err("value_error:string")
                })
            }
            (Py::List, _) => Some(list_check(&value, options)),
            _ => None,
        };
        if let Some(checked) = checked {
            return checked;
        }
    }
    if options.iter().any(|option| py_eq(option, &value)) { Ok(()) } else { Err("value_error:others") }
}

/// `type_checker`: whether `value` has the declared type (or, for a value the answers give as
/// a variable, the answers' type): `Ok(is_variable)`.
fn type_check(value: &Value, options: &[Value], expected: Py, nested: Option<Py>) -> Result<bool, Refusal> {
    let answer_type = options.iter().find(|o| !is_blank(o)).map(Py::of);
    let is_variable = answer_type.is_some_and(|t| t != expected);
    let mut nested_failed = false;
    if Py::of(value) == expected {
        let Some(nested) = nested else { return Ok(is_variable) };
        for option in options {
            let fits = match option {
                Value::Array(items) => value
                    .as_array()
                    .is_none_or(|values| values.iter().all(|v| type_check(v, items, nested, None).is_ok())),
                _ => true,
            };
            if fits {
                return Ok(is_variable);
            }
        }
        nested_failed = true;
    }
    // A value of the answers' type passes as a variable; BFCL returns its result so far, which
    // a failed nested check has already made a refusal.
    if answer_type.is_some_and(|t| t == Py::of(value)) {
        return if nested_failed { Err("type_error:nested") } else { Ok(true) };
    }
    Err("type_error:simple")
}

/// `dict_checker`: the dict matches one accepted dict, key by key.
fn dict_check(value: &Value, options: &[Value]) -> Result<(), Refusal> {
    let mut refusal = "dict_checker:unclear";
    let model = value.as_object().cloned().unwrap_or_default();
    for option in options.iter().filter(|o| !is_blank(o)) {
        let accepted: Map<String, Value> = option.as_object().cloned().unwrap_or_default();
        match dict_matches(&model, &accepted) {
            Ok(()) => return Ok(()),
            Err(why) => refusal = why,
        }
    }
    Err(refusal)
}

fn dict_matches(model: &Map<String, Value>, accepted: &Map<String, Value>) -> Result<(), Refusal> {
    for (key, value) in model {
        let Some(options) = accepted.get(key) else { return Err("value_error:dict_key") };
        let options: Vec<Value> = options.as_array().cloned().unwrap_or_default();
        let value = if value.is_string() { Value::String(standardize(value)) } else { value.clone() };
        let fits = options.iter().any(|o| {
            let o = if o.is_string() { Value::String(standardize(o)) } else { o.clone() };
            py_eq(&o, &value)
        });
        if !fits {
            return Err("value_error:dict_value");
        }
    }
    for (key, options) in accepted {
        if !model.contains_key(key) && !options.as_array().is_some_and(|o| o.iter().any(is_blank)) {
            return Err("value_error:dict_key");
        }
    }
    Ok(())
}

/// `list_dict_checker`: a list of dicts matching, in order, one accepted list of dicts.
fn list_dict_check(value: &Value, options: &[Value]) -> Result<(), Refusal> {
    let model = value.as_array().cloned().unwrap_or_default();
    let mut refusal = "list_dict_checker:unclear";
    for option in options {
        let accepted = list_items(option);
        if accepted.len() != model.len() {
            refusal = "value_error:list_dict_count";
            continue;
        }
        let mut all = Ok(());
        for (item, answer) in model.iter().zip(&accepted) {
            all = dict_check(item, std::slice::from_ref(answer));
            if all.is_err() {
                break;
            }
        }
        match all {
            Ok(()) => return Ok(()),
            Err(why) => refusal = why,
        }
    }
    Err(refusal)
}

/// `list_checker`: the list, its strings standardized, equals one accepted list.
fn list_check(value: &Value, options: &[Value]) -> Result<(), Refusal> {
    let normal = |items: Vec<Value>| -> Value {
        Value::Array(
            items
                .into_iter()
                .map(|item| if item.is_string() { Value::String(standardize(&item)) } else { item })
                .collect(),
        )
    };
    let model = normal(value.as_array().cloned().unwrap_or_default());
    if options.iter().any(|option| py_eq(&normal(list_items(option)), &model)) {
        Ok(())
    } else {
        Err("value_error:list/tuple")
    }
}

/// An accepted value read as a list, as Python's `len` and indexing read it: a string's
/// characters (so `""` is the empty list), anything else not a list.
fn list_items(option: &Value) -> Vec<Value> {
    match option {
        Value::Array(items) => items.clone(),
        Value::String(text) => text.chars().map(|c| Value::String(c.to_string())).collect(),
        _ => Vec::new(),
    }
}

/// `standardize_string`: no spaces or `,./-_*^`, lower case, `'` made `"`.
fn standardize(value: &Value) -> String {
    let text = value.as_str().unwrap_or_default();
    text.chars()
        .filter(|c| !matches!(c, ' ' | ',' | '.' | '/' | '-' | '_' | '*' | '^'))
        .collect::<String>()
        .to_lowercase()
        .replace('\'', "\"")
}

/// The empty string BFCL's answers use for "may be left out".
fn is_blank(value: &Value) -> bool {
    value.as_str() == Some("")
}

/// The Python type `json.loads` gives a value, or that BFCL maps a declared type to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Py {
    Str,
    Int,
    Float,
    Bool,
    List,
    Dict,
    None,
}

impl Py {
    fn of(value: &Value) -> Py {
        match value {
            Value::String(_) => Py::Str,
            Value::Number(n) if n.is_f64() => Py::Float,
            Value::Number(_) => Py::Int,
            Value::Bool(_) => Py::Bool,
            Value::Array(_) => Py::List,
            Value::Object(_) => Py::Dict,
            Value::Null => Py::None,
        }
    }

    /// `PYTHON_TYPE_MAPPING`.
    fn of_declared(declared: &str) -> Option<Py> {
        Some(match declared {
            "string" | "any" => Py::Str,
            "integer" => Py::Int,
            "float" => Py::Float,
            "boolean" => Py::Bool,
            "array" | "tuple" => Py::List,
            "dict" => Py::Dict,
            _ => return None,
        })
    }
}

/// Python's `==` on values `json.loads` made: numbers (and booleans, as 0 and 1) by value.
fn py_eq(a: &Value, b: &Value) -> bool {
    let number = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    };
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| py_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, value)| y.get(key).is_some_and(|other| py_eq(value, other)))
        }
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => {
                // Two ints compare exactly, as Python's do; anything else as floats.
                match (a.as_i64(), b.as_i64()) {
                    (Some(x), Some(y)) => x == y,
                    _ => x == y,
                }
            }
            _ => a == b,
        },
    }
}
