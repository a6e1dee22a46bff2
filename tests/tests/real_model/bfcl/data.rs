//! BFCL's cases as its own harness reads them (`BFCL_v4_<category>.json` and
//! `possible_answer/BFCL_v4_<category>.json`, one JSON object a line), and its functions as its
//! `OpenAI` handlers offer them (`convert_to_tool` with `GORILLA_TO_OPENAPI`): each name's dots
//! made `_`, each BFCL type its JSON Schema type, a float said so in its description.

use std::path::Path;

use serde_json::{Map, Value, json};

/// A category of the benchmark: its name in the tables and the file stem BFCL gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// One function offered, one call expected (`simple_python`).
    Simple,
    /// Two to four functions offered, one call of the right one expected.
    Multiple,
    /// One function offered, several calls of it expected in one turn.
    Parallel,
}

impl Category {
    /// The three categories, in the order the tables list them.
    pub const ALL: [Category; 3] = [Category::Simple, Category::Multiple, Category::Parallel];

    /// The category's name in BFCL's file names.
    pub fn stem(self) -> &'static str {
        match self {
            Category::Simple => "simple_python",
            Category::Multiple => "multiple",
            Category::Parallel => "parallel",
        }
    }

    /// The category from its name in a recorded answer.
    pub fn from_stem(stem: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|category| category.stem() == stem)
    }
}

/// One case: the question, the functions offered, and what BFCL accepts.
#[derive(Clone, Debug)]
pub struct Case {
    /// BFCL's id (`simple_python_0`).
    pub id: String,
    /// The category it is graded by.
    pub category: Category,
    /// The user's question (BFCL's first turn: these categories have one message).
    pub question: String,
    /// The functions as BFCL writes them (`"type": "dict"`, dotted names).
    pub functions: Vec<Value>,
    /// BFCL's possible answers: one `{name: {parameter: [accepted values]}}` per expected call.
    pub answers: Vec<Value>,
}

/// The first `limit` cases of `category` under `dir` (the wheel's `bfcl_eval/data`).
///
/// # Panics
/// When a file is missing or not BFCL's format: the benchmark cannot run without its data.
pub fn load(dir: &Path, category: Category, limit: usize) -> Vec<Case> {
    let lines = |path: &Path| -> Vec<Value> {
        let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        text.lines()
            .filter(|line| !line.trim().is_empty())
            .take(limit)
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    };
    let file = format!("BFCL_v4_{}.json", category.stem());
    let questions = lines(&dir.join(&file));
    let answers = lines(&dir.join("possible_answer").join(&file));
    questions
        .into_iter()
        .zip(answers)
        .map(|(question, answer)| {
            assert_eq!(question["id"], answer["id"], "the question and answer files are in the same order");
            Case {
                id: question["id"].as_str().unwrap().to_owned(),
                category,
                question: question["question"][0][0]["content"].as_str().unwrap().to_owned(),
                functions: question["function"].as_array().unwrap().clone(),
                answers: answer["ground_truth"].as_array().unwrap().clone(),
            }
        })
        .collect()
}

/// The name a function is offered by: BFCL's `OpenAI` handlers make every `.` a `_` (the
/// providers' tool names allow neither).
pub fn offered_name(name: &str) -> String {
    name.replace('.', "_")
}

/// `function` as a Chat Completions tool, as BFCL's `convert_to_tool` writes it.
pub fn tool(function: &Value) -> Value {
    let mut parameters = function["parameters"].clone();
    parameters["type"] = json!("object");
    if let Some(Value::Object(properties)) = parameters.get_mut("properties") {
        cast(properties);
    }
    json!({
        "type": "function",
        "function": {
            "name": offered_name(function["name"].as_str().unwrap_or_default()),
            "description": function["description"],
            "parameters": parameters,
        }
    })
}

/// BFCL's type for its JSON Schema one (`GORILLA_TO_OPENAPI`); an unknown one is a string.
fn json_type(gorilla: &str) -> &'static str {
    match gorilla {
        "integer" | "byte" | "short" | "long" | "Bigint" => "integer",
        "number" | "float" | "double" => "number",
        "boolean" | "bool" => "boolean",
        "array" | "list" | "tuple" | "ArrayList" | "Array" | "Queue" | "Stack" => "array",
        "dict" | "object" | "HashMap" | "Hashtable" => "object",
        _ => "string",
    }
}

/// `_cast_to_openai_type`: each property's type mapped, nested properties and item types too.
fn cast(properties: &mut Map<String, Value>) {
    for property in properties.values_mut() {
        let Some(property) = property.as_object_mut() else { continue };
        let kind = property.get("type").and_then(Value::as_str).unwrap_or("string").to_owned();
        if kind == "float" {
            property.insert("format".into(), json!("float"));
            let description = property.get("description").and_then(Value::as_str).unwrap_or_default();
            property.insert("description".into(), json!(format!("{description} This is a float type value.")));
        }
        let mapped = json_type(&kind);
        property.insert("type".into(), json!(mapped));
        if mapped != "array" && mapped != "object" {
            continue;
        }
        if let Some(Value::Object(nested)) = property.get_mut("properties") {
            cast(nested);
        } else if let Some(Value::Object(items)) = property.get_mut("items") {
            let item_type = json_type(items.get("type").and_then(Value::as_str).unwrap_or("string"));
            items.insert("type".into(), json!(item_type));
            if item_type == "array"
                && let Some(Value::Object(inner)) = items.get_mut("items")
            {
                let inner_type = json_type(inner.get("type").and_then(Value::as_str).unwrap_or("string"));
                inner.insert("type".into(), json!(inner_type));
            } else if item_type == "object"
                && let Some(Value::Object(nested)) = items.get_mut("properties")
            {
                cast(nested);
            }
        }
    }
}
