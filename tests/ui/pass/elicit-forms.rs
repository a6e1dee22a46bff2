//! Every field MCP's form can show passes `cargo check`: strings, numbers, integers,
//! booleans, string enums, lists of them, `Option`s, and newtypes of any of these.
use std::collections::BTreeSet;

use tool_core::{ToolArgs, ToolContext, tool};

#[derive(ToolArgs, PartialEq, Eq, PartialOrd, Ord)]
enum Topping {
    Cheese,
    Olives,
}

#[derive(ToolArgs)]
struct Email(#[param(format = "email")] String);

#[derive(ToolArgs)]
struct Order {
    name: String,
    #[param(minimum = 1, maximum = 9)]
    count: u8,
    price: f64,
    gift: bool,
    size: Option<Topping>,
    toppings: Vec<Topping>,
    extras: BTreeSet<Topping>,
    note: Option<String>,
    email: Email,
}

/// Asks for an order.
#[tool]
async fn order(ctx: &ToolContext) -> Result<String, String> {
    let _ = ctx.elicit::<Order>("Your order?").await?;
    Ok("ordered".to_owned())
}

fn main() {}
